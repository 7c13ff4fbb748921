import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Db } from '../db/index.js';
import { PEOPLE_PAGE, type PeoplePage, type PersonSummary } from '../../common/api/people.js';
import { readObject, type Scalar } from '../../common/people.js';
import { storable } from '../../common/scrub.js';
import { prefixEnd } from '../sessions/search-terms.js';
import { badRequest } from '../http/errors.js';

// A campaign's people directory: the ids pages identified visitors by, a page at a time in byte
// order of the id, each with when they were first and last seen, how many sessions, on which
// devices and what traits. Every page is index ranges (migration 0033): the ids come from
// (campaign_id, user_id) — a prefix is a range of it — or from session_traits by key and value,
// each in id order and cut at a page; then only the sessions of the people on the page are read.

/** What a search asks: ids starting with `idPrefix`, or a trait `value` (under `key`, when given). */
export interface PeopleSearch {
  idPrefix?: string;
  key?: string;
  value?: string;
}

/** Trait values are kept ASCII lower-cased (migration 0033): a search's value is compared so. */
const traitValue = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `plan=pro` is a trait (split at the first `=`); any other text an id's start or a trait's value. */
export function parseSearch(q: string | undefined): PeopleSearch {
  const text = storable(q ?? '').trim();
  if (!text) return {};
  const at = text.indexOf('=');
  if (at > 0) return { key: text.slice(0, at).trim(), value: traitValue(text.slice(at + 1).trim()) };
  return { idPrefix: text, value: traitValue(text) };
}

export const encodeCursor = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

/** The last id of the page before; 400 for anything encodeCursor did not make. */
export function decodeCursor(cursor: string): string {
  const userId = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!userId || encodeCursor(userId) !== cursor || storable(userId) !== userId) throw badRequest('Invalid cursor');
  return userId;
}

/** Ids in the order both databases page them: by their UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** sessions.user_id compared by bytes: PostgreSQL's index for it is collation "C" (SQLite's compares bytes). */
const userIdBytes = (db: Db): RawBuilder<string> => (isPostgres(db) ? sql<string>`user_id collate "C"` : sql<string>`user_id`);

/** Up to a page and one of identified ids after `after`, those starting with `prefix` when given. */
async function idsByPrefix(db: Db, campaignId: string, prefix: string | undefined, after: string | null): Promise<string[]> {
  const id = userIdBytes(db);
  const rows = await db
    .selectFrom('sessions')
    .select(id.as('person'))
    .distinct()
    .where('campaign_id', '=', campaignId)
    .where('user_id', 'is not', null)
    // One lower bound: given two (the cursor and the prefix) SQLite skip-scans and sorts every match.
    .$if(after !== null && (prefix === undefined || byBytes(after, prefix) >= 0), (qb) => qb.where(id, '>', after as string))
    .$if(prefix !== undefined && (after === null || byBytes(after, prefix) < 0), (qb) => qb.where(id, '>=', prefix as string))
    .$if(prefix !== undefined, (qb) => qb.where(id, '<', prefixEnd(prefix as string)))
    .orderBy(id)
    .limit(PEOPLE_PAGE + 1)
    .execute();
  return rows.map((row) => row.person);
}

/** Up to a page and one of ids after `after` with a trait of that value (and key). */
async function idsByTrait(db: Db, campaignId: string, { key, value }: PeopleSearch, after: string | null): Promise<string[]> {
  const rows = await db
    .selectFrom('session_traits')
    .select('user_id')
    .distinct()
    .where('campaign_id', '=', campaignId)
    .$if(key !== undefined, (qb) => qb.where('key', '=', key as string))
    .where('value', '=', value as string)
    .$if(after !== null, (qb) => qb.where('user_id', '>', after as string))
    .orderBy('user_id')
    .limit(PEOPLE_PAGE + 1)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The page's ids and one more when there is a next page: both answers of a bare text, merged in order. */
async function pageIds(db: Db, campaignId: string, search: PeopleSearch, after: string | null): Promise<string[]> {
  if (search.key !== undefined) return idsByTrait(db, campaignId, search, after);
  if (search.idPrefix === undefined) return idsByPrefix(db, campaignId, undefined, after);
  const [byId, byTrait] = await Promise.all([idsByPrefix(db, campaignId, search.idPrefix, after), idsByTrait(db, campaignId, search, after)]);
  return [...new Set([...byId, ...byTrait])].sort(byBytes).slice(0, PEOPLE_PAGE + 1);
}

/** First and last seen, sessions and devices (the most used first, ties by name) of each id, from their sessions (one index range each). */
async function seen(db: Db, campaignId: string, ids: string[]): Promise<Map<string, Omit<PersonSummary, 'traits'>>> {
  const rows = await db
    .selectFrom('sessions')
    .select((eb) => [
      'user_id',
      'device',
      eb.fn.countAll<number | string>().as('sessions'),
      eb.fn.min('started_at').as('first'),
      eb.fn.max('last_activity_at').as('last'),
    ])
    .where('campaign_id', '=', campaignId)
    .where('user_id', 'in', ids)
    .groupBy(['user_id', 'device'])
    .orderBy('sessions', 'desc')
    .orderBy('device')
    .execute();
  const people = new Map<string, Omit<PersonSummary, 'traits'>>();
  for (const row of rows) {
    const userId = row.user_id as string;
    const person = people.get(userId) ?? { userId, firstSeen: Infinity, lastSeen: 0, sessions: 0, devices: [] };
    person.firstSeen = Math.min(person.firstSeen, Number(row.first));
    person.lastSeen = Math.max(person.lastSeen, Number(row.last));
    person.sessions += Number(row.sessions);
    if (row.device && !person.devices.includes(row.device)) person.devices.push(row.device);
    people.set(userId, person);
  }
  return people;
}

/** The traits of the person's newest session that has any (one row read from the end of their range). */
async function newestTraits(db: Db, campaignId: string, userId: string): Promise<Record<string, Scalar>> {
  const row = await db
    .selectFrom('sessions')
    .select('traits')
    .where('campaign_id', '=', campaignId)
    .where('user_id', '=', userId)
    .where('traits', 'is not', null)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return readObject<Scalar>(row?.traits);
}

/** A page of the campaign's people, searched by `q`, after the person `cursor` names. */
export async function listPeople(db: Db, campaignId: string, query: { q?: string; cursor?: string }): Promise<PeoplePage> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const ids = await pageIds(db, campaignId, parseSearch(query.q), after);
  const onPage = ids.slice(0, PEOPLE_PAGE);
  if (!onPage.length) return { people: [], nextCursor: null };
  const [facts, traits] = await Promise.all([seen(db, campaignId, onPage), Promise.all(onPage.map((id) => newestTraits(db, campaignId, id)))]);
  // A person erased between the two reads has no facts left: left out.
  const people = onPage.flatMap((id, i) => {
    const person = facts.get(id);
    return person ? [{ ...person, traits: traits[i] }] : [];
  });
  return { people, nextCursor: ids.length > PEOPLE_PAGE ? encodeCursor(onPage[onPage.length - 1]) : null };
}
