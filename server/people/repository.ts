import { createHmac, randomUUID } from 'node:crypto';
import type { Db } from '../db/index.js';
import type { Person } from '../../common/api/people.js';
import { ERASE_BATCH, PERSON_SESSIONS_MAX } from '../../common/api/people.js';
import { toSession } from '../sessions/rows.js';
import { deleteSessions } from '../recordings/deletion.js';

/** A person's sessions, newest first, and what they told over all of them (null: none stored). */
export async function findPerson(db: Db, campaignId: string, userId: string): Promise<Person | null> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('user_id', '=', userId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PERSON_SESSIONS_MAX + 1)
    .execute();
  if (!rows.length) return null;
  const sessions = rows.slice(0, PERSON_SESSIONS_MAX).map(toSession);
  const person: Person = { userId, traits: {}, tags: {}, events: {}, sessions, truncated: rows.length > PERSON_SESSIONS_MAX };
  // Oldest first, so the newest session's trait and tag values win.
  for (const session of [...sessions].reverse()) {
    Object.assign(person.traits, session.traits);
    Object.assign(person.tags, session.tags);
    for (const [name, count] of Object.entries(session.events ?? {})) person.events[name] = (person.events[name] ?? 0) + count;
  }
  return person;
}

/**
 * What an erasure record keeps of the person: an HMAC of their id under the server's `people`
 * secret, never the id. Whoever holds the secret can tell whether a given id was erased (a
 * request was met); a plain hash would let anyone with the table test guessed ids (e-mails).
 */
export const subjectDigest = (peopleKey: string, userId: string) => createHmac('sha256', peopleKey).update(userId, 'utf8').digest('hex');

/** Who erases, with what key, and when (the clock, injectable for tests). */
export interface Erasure {
  erasedBy: string;
  peopleKey: string;
  now?: number;
}

/**
 * Erases every session of a person: chunks, rows, and with the rows (foreign keys) their stars,
 * notes, share links and event counts, ERASE_BATCH sessions per transaction, each freeing its
 * places under the campaign's session limit. Then records the erasure. Answers the ids erased.
 */
export async function erasePerson(db: Db, campaignId: string, userId: string, erasure: Erasure): Promise<string[]> {
  const erased: string[] = [];
  for (;;) {
    const ids = await db.transaction().execute(async (trx) => {
      const batch = await trx
        .selectFrom('sessions')
        .select('id')
        .where('campaign_id', '=', campaignId)
        .where('user_id', '=', userId)
        .limit(ERASE_BATCH)
        .execute();
      const ids = batch.map((row) => row.id);
      await deleteSessions(trx, campaignId, ids, 'erasure');
      return ids;
    });
    erased.push(...ids);
    if (ids.length < ERASE_BATCH) break;
  }
  await db
    .insertInto('erasures')
    .values({
      id: randomUUID(),
      campaign_id: campaignId,
      erased_by: erasure.erasedBy,
      subject_hmac: subjectDigest(erasure.peopleKey, userId),
      session_count: erased.length,
      erased_at: erasure.now ?? Date.now(),
    })
    .execute();
  return erased;
}
