import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import { RARE_EVENT_SESSIONS } from '../../server/people/filters.js';
import { createHash } from 'node:crypto';
import { subjectDigest } from '../../server/people/repository.js';
import * as erasuresKeyed from '../../server/db/migrations/0030_erasures_keyed.js';
import { ERASE_BATCH, type Person } from '../../common/api/people.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import type { Campaign, SessionsResponse } from '../../common/api-types.js';
import { createCampaign, info, pageEvents, postBatch, sessionId, type TestEvent } from './ingest-support.js';

// People: identify, events and tags as they arrive from a page fold into facts the list filters
// by; a person's sessions are answered and exported, and erased whole, owner only.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let other: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
const ids = { first: sessionId(), second: sessionId(), someoneElse: sessionId(), anonymous: sessionId() };

const custom = (tag: string, payload: unknown, timestamp: number): TestEvent => ({ type: 5, data: { tag, payload }, timestamp });

async function send(id: string, seq: number, extra: (t: number) => TestEvent[]) {
  const start = Date.now() - 5000 + seq * 100;
  const events = [...(seq === 0 ? pageEvents(start) : []), ...extra(start + 10)];
  const response = await postBatch(server, campaign.id, { sessionId: id, seq, info: seq === 0 ? info() : null, events });
  return response;
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'People Owner');
  other = await userSession(server, 'Someone Else');
  campaign = await createCampaign(server, owner.headers, 'People');
  const ok = (response: Response) => expect(response.status).toBe(200);
  ok(
    await send(ids.first, 0, (t) => [
      custom(PEOPLE_TAGS.identify, { userId: 'customer-4711', traits: { plan: 'pro', seats: 3 } }, t),
      custom(PEOPLE_TAGS.event, { name: 'signup' }, t + 1),
    ]),
  );
  // The facts fold batch after batch: counts go on, tags join.
  ok(
    await send(ids.first, 1, (t) => [
      custom(PEOPLE_TAGS.event, { name: 'signup', props: { step: 2 } }, t),
      custom(PEOPLE_TAGS.event, { name: 'checkout' }, t + 1),
      custom(PEOPLE_TAGS.tag, { key: 'team', value: 'blue' }, t + 2),
    ]),
  );
  ok(await send(ids.second, 0, (t) => [custom(PEOPLE_TAGS.identify, { userId: 'customer-4711', traits: { plan: 'team' } }, t)]));
  ok(await send(ids.someoneElse, 0, (t) => [custom(PEOPLE_TAGS.identify, { userId: 'customer-9' }, t), custom(PEOPLE_TAGS.event, { name: 'signup' }, t + 1)]));
  ok(await send(ids.anonymous, 0, () => []));
});
afterAll(async () => server?.close());

async function listed(query: string, headers = owner.headers): Promise<string[]> {
  const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?${query}`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as SessionsResponse).sessions.map((s) => s.sessionId).sort();
}

const personUrl = (userId: string, campaignId = campaign.id) => `${server.url}/api/v1/people/${campaignId}/${encodeURIComponent(userId)}`;

describe('people facts and filters', () => {
  it('keeps the id, traits, tags and event counts on the session and filters by each', async () => {
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?user=customer-4711`, { headers: owner.headers });
    const first = ((await response.json()) as SessionsResponse).sessions.find((s) => s.sessionId === ids.first);
    expect(first).toMatchObject({ userId: 'customer-4711', traits: { plan: 'pro', seats: 3 }, tags: { team: 'blue' }, events: { signup: 2, checkout: 1 } });
    expect(await listed('user=customer-4711')).toEqual([ids.first, ids.second].sort());
    expect(await listed('event=checkout')).toEqual([ids.first]);
    expect(await listed('event=signup')).toEqual([ids.first, ids.someoneElse].sort());
    expect(await listed('event=signup&user=customer-9')).toEqual([ids.someoneElse]);
    expect(await listed('trait=plan:pro')).toEqual([ids.first]);
    expect(await listed('trait=seats:3')).toEqual([ids.first]);
    expect(await listed('tag=team:blue')).toEqual([ids.first]);
    expect(await listed('tag=team:blu')).toEqual([]);
    // The user filter matches from the start of the id, case as written (issue 36).
    expect(await listed('user=customer-47')).toEqual([ids.first, ids.second].sort());
    expect(await listed('user=Customer-47')).toEqual([]);
    expect(await listed('user=ustomer-47')).toEqual([]);
    expect(await listed('event=never-sent')).toEqual([]);
  });

  it('pages an event filter by cursor, read by the sessions of a rare event or along the list for a common one', async () => {
    const pages = async (query: string) => {
      const seen: string[] = [];
      let cursor = '';
      do {
        const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?limit=1&${query}${cursor && `&cursor=${cursor}`}`, {
          headers: owner.headers,
        });
        const page = (await response.json()) as SessionsResponse;
        seen.push(...page.sessions.map((s) => s.sessionId));
        cursor = page.nextCursor ?? '';
      } while (cursor);
      return seen;
    };
    expect((await pages('event=signup')).sort()).toEqual([ids.first, ids.someoneElse].sort());
    expect((await pages('event=signup&sort=longest')).sort()).toEqual([ids.first, ids.someoneElse].sort());
    // Past RARE_EVENT_SESSIONS, the list is walked in order and each session's events checked.
    const common = await startServer();
    try {
      const them = await userSession(common, 'Common Owner');
      const theirs = await createCampaign(common, them.headers, 'Common');
      const many = RARE_EVENT_SESSIONS + 5;
      const now = Date.now();
      for (let i = 0; i < many; i++)
        await insertSession(common.db, {
          campaign_id: theirs.id,
          id: `common-${String(i).padStart(8, '0')}`,
          // Two sessions a second: pages must break ties on the start by id.
          started_at: now - Math.floor(i / 2) * 1000,
          events: i % 2 ? '{"view":1}' : '{"view":2,"buy":1}',
        });
      const page = async (query: string, limit = 200) => {
        const response = await fetch(`${common.url}/api/v1/streaming/sessions/${theirs.id}/?limit=${limit}&${query}`, { headers: them.headers });
        return (await response.json()) as SessionsResponse;
      };
      const every = async (query: string) => {
        const seen: string[] = [];
        let cursor = '';
        do {
          // An odd page size, so pages end between two sessions of the same second.
          const body = await page(`${query}${cursor && `&cursor=${cursor}`}`, 199);
          seen.push(...body.sessions.map((s) => s.sessionId));
          cursor = body.nextCursor ?? '';
        } while (cursor);
        return seen;
      };
      // Newest first, ties by id descending, as the unfiltered list orders them.
      const newest = Array.from({ length: many }, (_, i) => i)
        .sort((a, b) => Math.floor(a / 2) - Math.floor(b / 2) || b - a)
        .map((i) => `common-${String(i).padStart(8, '0')}`);
      // The event alone (one range of session_events by start), then with another filter (walked).
      expect(await every('event=view')).toEqual(newest);
      expect(await every('event=view&type=human')).toEqual(newest);
      expect((await page('event=buy')).sessions.every((s) => s.events?.buy === 1)).toBe(true);
    } finally {
      await common.close();
    }
  });

  it('refuses filters and page calls over the bounds with a reason', async () => {
    for (const query of [`user=${'x'.repeat(201)}`, `event=${'x'.repeat(201)}`, 'trait=no-colon', 'tag=:value']) {
      const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?${query}`, { headers: owner.headers });
      expect(response.status, query).toBe(400);
    }
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    for (const payload of [{ userId: 'x'.repeat(201) }, { userId: 'a', traits: tooMany }, { userId: 'a', traits: { nested: { no: 1 } } }, { userId: '' }]) {
      const response = await send(sessionId(), 0, (t) => [custom(PEOPLE_TAGS.identify, payload, t)]);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain(PEOPLE_TAGS.identify);
    }
    const badEvent = await send(sessionId(), 0, (t) => [custom(PEOPLE_TAGS.event, { name: 'a', props: [1] }, t)]);
    expect(badEvent.status).toBe(400);
    // Text a database column cannot hold (a NUL, a lone surrogate) is stored without it, never a 5xx.
    const odd = sessionId();
    const stored = await send(odd, 0, (t) => [
      custom(PEOPLE_TAGS.identify, { userId: 'nul\u0000id\ud800', traits: { 'k\u0000': 'v\udc00' } }, t),
      custom(PEOPLE_TAGS.event, { name: 'ev\ud800ent' }, t + 1),
      custom(PEOPLE_TAGS.tag, { key: 'a\u0000', value: '\udfff' }, t + 2),
    ]);
    expect(stored.status).toBe(200);
    expect(await listed('user=nulid')).toEqual([odd]);
    expect(await listed('event=event')).toEqual([odd]);
    await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/${odd}`, { method: 'DELETE', headers: owner.headers });
  });
});

describe('a person', () => {
  it('answers their sessions, merged traits and summed events, and the same as a file', async () => {
    const response = await fetch(personUrl('customer-4711'), { headers: owner.headers });
    expect(response.status).toBe(200);
    const person = (await response.json()) as Person;
    expect(person.sessions.map((s) => s.sessionId).sort()).toEqual([ids.first, ids.second].sort());
    expect(person.events).toEqual({ signup: 2, checkout: 1 });
    expect(person.tags).toEqual({ team: 'blue' });
    expect(person.traits.seats).toBe(3);
    const file = await fetch(`${personUrl('customer-4711')}?download=true`, { headers: owner.headers });
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="tapedeck-person-[0-9a-f]{12}\.json"$/);
    expect(((await file.json()) as Person).userId).toBe('customer-4711');
  });

  it("is the owner's only: 404 for another workspace or no such person, 400 for a bad id", async () => {
    expect((await fetch(personUrl('customer-4711'), { headers: other.headers })).status).toBe(404);
    expect((await fetch(personUrl('customer-4711'), { method: 'DELETE', headers: other.headers })).status).toBe(404);
    expect((await fetch(personUrl('customer-4711'), { method: 'DELETE', headers: { cookie: owner.cookie, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(personUrl('customer-4711'), { headers: {} })).status).toBe(401);
    expect((await fetch(personUrl('nobody'), { headers: owner.headers })).status).toBe(404);
    expect((await fetch(personUrl('nul\u0000id'), { headers: owner.headers })).status).toBe(400);
    expect((await fetch(personUrl('x'.repeat(201)), { headers: owner.headers })).status).toBe(400);
    // The longest id is a person's id, even percent-encoded.
    expect((await fetch(personUrl('é'.repeat(200)), { headers: owner.headers })).status).toBe(404);
    // Nothing was erased by the refused calls.
    expect(await listed('user=customer-4711')).toEqual([ids.first, ids.second].sort());
  });

  it('erases every session, chunk, star, note and event count of the person, and nothing of others', async () => {
    expect((await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/${ids.first}/star`, { method: 'PUT', headers: owner.headers })).status).toBe(
      200,
    );
    const note = await fetch(`${server.url}/api/v1/notes/${campaign.id}/${ids.first}`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Pays here', timestamp: Date.now() - 4000 }),
    });
    expect(note.status).toBe(201);
    const before = await counts();
    const response = await fetch(personUrl('customer-4711'), { method: 'DELETE', headers: owner.headers });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ erased: 2 });
    const erased = [ids.first, ids.second];
    for (const table of ['sessions', 'chunks', 'session_stars', 'notes', 'session_events'] as const) {
      const column = table === 'sessions' ? 'id' : 'session_id';
      const left = await server.db.selectFrom(table).select(column).where('campaign_id', '=', campaign.id).where(column, 'in', erased).execute();
      expect(left, table).toEqual([]);
    }
    expect((await fetch(personUrl('customer-4711'), { headers: owner.headers })).status).toBe(404);
    // Everyone else's sessions and chunks are all still there.
    expect(await listed('')).toEqual([ids.someoneElse, ids.anonymous].sort());
    const after = await counts();
    expect(after.otherChunks).toBe(before.otherChunks);
    expect(await listed('event=signup')).toEqual([ids.someoneElse]);
    // The record says who and when, and keeps the person only as a hash keyed by the server's secret:
    // not the plain SHA-256 anyone could compute from a guessed id.
    const records = await server.db.selectFrom('erasures').selectAll().where('campaign_id', '=', campaign.id).execute();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ erased_by: owner.userId, session_count: 2, subject_hmac: subjectDigest(server.app.ctx.peopleKey, 'customer-4711') });
    expect(records[0].subject_hmac).not.toBe(createHash('sha256').update('customer-4711').digest('hex'));
    expect(JSON.stringify(records)).not.toContain('customer-4711');
  });

  it('goes with its campaign: deleting the campaign deletes its erasure records', async () => {
    const gone = await createCampaign(server, owner.headers, 'Erased then deleted');
    await insertSession(server.db, { campaign_id: gone.id, id: 'to-erase', started_at: Date.now(), user_id: 'ada@example.test' });
    expect((await fetch(personUrl('ada@example.test', gone.id), { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    const records = () => server.db.selectFrom('erasures').select('campaign_id').where('campaign_id', '=', gone.id).execute();
    expect(await records()).toHaveLength(1);
    const deleted = await fetch(`${server.url}/api/v1/campaign/delete/${gone.id}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    expect(await records()).toEqual([]);
  });

  it("migration 0030 drops old records' plain hashes and the records of deleted campaigns", async () => {
    await erasuresKeyed.down(server.db);
    const old = (id: string, campaignId: string) => ({
      id,
      campaign_id: campaignId,
      erased_by: owner.userId,
      subject_sha256: createHash('sha256').update('ada@example.test').digest('hex'),
      session_count: 3,
      erased_at: 1,
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await (server.db as any)
      .insertInto('erasures')
      .values([old('kept-record', campaign.id), old('orphan-record', 'campaign-deleted-long-ago')])
      .execute();
    await erasuresKeyed.up(server.db);
    const rows = await server.db.selectFrom('erasures').selectAll().where('id', 'in', ['kept-record', 'orphan-record']).execute();
    expect(rows).toEqual([{ id: 'kept-record', campaign_id: campaign.id, erased_by: owner.userId, subject_hmac: null, session_count: 3, erased_at: 1 }]);
  });

  it('erases a person of many sessions in bounded batches, freeing their places', async () => {
    const many = ERASE_BATCH + 20;
    for (let i = 0; i < many; i++)
      await insertSession(server.db, { campaign_id: campaign.id, id: `many-${String(i).padStart(8, '0')}`, started_at: Date.now() - i, user_id: 'frequent' });
    const response = await fetch(personUrl('frequent'), { method: 'DELETE', headers: owner.headers });
    expect(await response.json()).toEqual({ erased: many });
    expect(await listed('user=frequent')).toEqual([]);
    expect(await listed('')).toEqual([ids.someoneElse, ids.anonymous].sort());
  });
});

async function counts() {
  const rows = await server.db
    .selectFrom('chunks')
    .select('session_id')
    .where('campaign_id', '=', campaign.id)
    .where('session_id', 'in', [ids.someoneElse, ids.anonymous])
    .execute();
  return { otherChunks: rows.length };
}
