import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId, storedCounts } from './ingest-support.js';

// What an anonymous sender can do to ingest: every input checked the same way on SQLite and
// PostgreSQL, every session bounded, every sender rate-limited.

const batchOf = (overrides: Record<string, unknown> = {}) => ({ sessionId: sessionId(), seq: 0, info: info(), events: pageEvents(), ...overrides });
const event = (timestamp: unknown, type = 3) => ({ type, data: { source: 2, type: 2, id: 1, x: 1, y: 1 }, timestamp });

async function replayOf(server: TestServer, campaignId: string, id: string, cookie: string) {
  const res = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${id}`, { headers: { cookie } });
  return (await res.json()) as { events: { type: number; data: Record<string, unknown>; timestamp: number }[] };
}

describe('ingest validates everything a visitor sends', () => {
  let server: TestServer;
  let campaignId: string;
  beforeAll(async () => {
    server = await startServer();
    campaignId = await makeCampaign(server);
  });
  afterAll(async () => server?.close());

  const refusals: [string, Record<string, unknown>, RegExp][] = [
    ['a fractional timestamp', { events: [event(Date.now() - 10.5)] }, /^events\[0\]\.timestamp must be a whole number of milliseconds$/],
    ['a timestamp of 1', { events: [event(1)] }, /^events\[0\]\.timestamp must be within 24 hours before and 10 minutes after the server's clock$/],
    ['a timestamp of 1e300', { events: [event(1e300)] }, /^events\[0\]\.timestamp must be/],
    ['a timestamp an hour ahead', { events: [event(Date.now() + 3_600_000)] }, /^events\[0\]\.timestamp must be within/],
    ['hardwareConcurrency 3e9', { info: info({ hardwareConcurrency: 3e9 }) }, /^info\.hardwareConcurrency must be a whole number from 0 to 1024$/],
    ['a screen 1e12 wide', { info: info({ screenWidth: 1e12 }) }, /^info\.screenWidth must be a whole number from 0 to 100000$/],
    ['a user agent that is not text', { info: info({ userAgent: { a: 1 } }) }, /^info\.userAgent must be text/],
    ["an event type past rrweb's", { events: [event(Date.now(), 9)] }, /^events\[0\]\.type must be an rrweb event type \(0 to 8\)$/],
  ];

  it.each(refusals)('refuses %s with a 400 that names the field, storing nothing', async (_name, overrides, message) => {
    const before = await storedCounts(server, campaignId);
    const res = await postBatch(server, campaignId, batchOf(overrides));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
    expect(await storedCounts(server, campaignId)).toEqual(before);
  });

  it('refuses data nested 100,000 deep with a 400, not a crash', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const body = `{"sessionId":"${sessionId()}","seq":0,"info":${JSON.stringify(info())},"events":[{"type":3,"data":{"x":${deep}},"timestamp":${Date.now()}}]}`;
    const res = await postBatch(server, campaignId, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'The batch nests deeper than 1000 levels' });
  });

  it('stores info with NUL characters and lone surrogates stripped, on either database', async () => {
    const id = sessionId();
    const res = await postBatch(
      server,
      campaignId,
      batchOf({ sessionId: id, info: info({ language: 'en\u0000-GB', timezone: 'Europe/\uD800London', userAgent: 'Agent\u0000X' }) }),
    );
    expect(res.status).toBe(200);
    const row = await server.db.selectFrom('sessions').select(['language', 'timezone', 'user_agent']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ language: 'en-GB', timezone: 'Europe/London', user_agent: 'AgentX' });
  });

  it("takes rrweb's newer Asset and Annotation events instead of stopping the tracker", async () => {
    const now = Date.now();
    const res = await postBatch(
      server,
      campaignId,
      batchOf({
        events: [
          ...pageEvents(now - 1000),
          { type: 7, data: { url: 'https://shop.example.com/a.png', payload: {} }, timestamp: now - 10 },
          { type: 8, data: { tag: 'x' }, timestamp: now - 5 },
        ],
      }),
    );
    expect(res.status).toBe(200);
  });

  it('keeps older sessions reachable through the list cursor after odd input (integer times only)', async () => {
    const owner = await userSession(server, 'Cursor Owner');
    const own = await makeCampaign(server, { ownerId: owner.userId });
    for (let i = 0; i < 3; i++) expect((await postBatch(server, own, batchOf())).status).toBe(200);
    expect((await postBatch(server, own, batchOf({ events: [event(Date.now() - 0.5)] }))).status).toBe(400);
    const first = await fetch(`${server.url}/api/v1/streaming/sessions/${own}/?limit=2`, { headers: { cookie: owner.cookie } });
    const page = (await first.json()) as { sessions: unknown[]; nextCursor: string };
    const second = await fetch(`${server.url}/api/v1/streaming/sessions/${own}/?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`, {
      headers: { cookie: owner.cookie },
    });
    expect(second.status).toBe(200);
    expect(((await second.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);
  });
});

describe('a session is bounded', () => {
  let server: TestServer;
  let campaignId: string;
  let cookie: string;
  beforeAll(async () => {
    // Small caps so the test reaches them quickly; the defaults are 64 MB, 1,000,000 events, 20,000 batches.
    server = await startServer({ SESSION_MAX_MB: '1', SESSION_MAX_BATCHES: '10', RATE_BATCHES_PER_SESSION: '0' });
    const owner = await userSession(server, 'Cap Owner');
    cookie = owner.cookie;
    campaignId = await makeCampaign(server, { ownerId: owner.userId });
  });
  afterAll(async () => server?.close());

  /** A batch of about 300 KB of event JSON that compresses to almost nothing. */
  const bulky = (id: string, seq: number) => ({
    sessionId: id,
    seq,
    info: info(),
    events: [{ type: 3, data: { source: 0, texts: [{ id: 1, value: 'x'.repeat(300_000) }] }, timestamp: Date.now() - 1000 + seq }],
  });

  it('closes the session at its byte cap with a note in the replay, and refuses it from then on (410)', async () => {
    const id = sessionId();
    const statuses: number[] = [];
    for (let seq = 0; seq < 5; seq++) statuses.push((await postBatch(server, campaignId, bulky(id, seq))).status);
    expect(statuses).toEqual([200, 200, 200, 410, 410]);
    const refused = await postBatch(server, campaignId, { sessionId: id, seq: 9, events: pageEvents() });
    expect(refused.status).toBe(410);
    expect(await refused.json()).toEqual({ error: 'Session closed: it reached 1 MB of events' });
    const row = await server.db.selectFrom('sessions').select(['byte_count', 'batch_count', 'closed_reason']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.batch_count).toBe(3);
    expect(row.byte_count).toBeLessThanOrEqual(1024 * 1024);
    expect(row.closed_reason).toBe('Session closed: it reached 1 MB of events');
    const replay = await replayOf(server, campaignId, id, cookie);
    expect(replay.events.at(-1)).toMatchObject({ type: 5, data: { tag: 'tapedeck', payload: { stopped: 'Session closed: it reached 1 MB of events' } } });
  });

  it('never lets concurrent batches of one session pass the cap together', async () => {
    const id = sessionId();
    expect((await postBatch(server, campaignId, bulky(id, 0))).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => postBatch(server, campaignId, bulky(id, i + 1))));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(2);
    const row = await server.db.selectFrom('sessions').select(['byte_count', 'batch_count']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.byte_count).toBeLessThanOrEqual(1024 * 1024);
    const chunks = await server.db.selectFrom('chunks').select('seq').where('session_id', '=', id).execute();
    expect(chunks).toHaveLength(row.batch_count + 1); // the stored batches and the closing note
  });

  it('closes the session at its batch cap', async () => {
    const id = sessionId();
    const statuses: number[] = [];
    for (let seq = 0; seq < 11; seq++) statuses.push((await postBatch(server, campaignId, { ...batchOf({ sessionId: id, seq }) })).status);
    expect(statuses).toEqual([...Array(10).fill(200), 410]);
  });

  it('counts a retried batch once', async () => {
    const id = sessionId();
    const batch = bulky(id, 0);
    for (let i = 0; i < 4; i++) expect((await postBatch(server, campaignId, batch)).status).toBe(200);
    const row = await server.db.selectFrom('sessions').select(['batch_count']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.batch_count).toBe(1);
  });
});

/** A server of its own for each limit, so one test's counts never spend another's. */
async function withServer(env: Record<string, string>, run: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startServer(env);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

describe('ingest rate limits', () => {
  it('limits new sessions per IP with 429 and Retry-After, readable cross-origin, while known sessions go on', () =>
    withServer({ RATE_NEW_SESSIONS_PER_IP: '3' }, async (server) => {
      const campaignId = await makeCampaign(server);
      const ids = Array.from({ length: 4 }, () => sessionId());
      const statuses = [];
      for (const id of ids) statuses.push((await postBatch(server, campaignId, batchOf({ sessionId: id }))).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await postBatch(server, campaignId, batchOf());
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('access-control-expose-headers')).toMatch(/Retry-After/i);
      expect(limited.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
      expect(((await limited.json()) as { error: string }).error).toMatch(/^Too many requests: try again in \d+ s$/);
      expect((await postBatch(server, campaignId, batchOf({ sessionId: ids[0], seq: 1, info: undefined }))).status).toBe(200);
      expect((await storedCounts(server, campaignId)).sessions).toBe(3);
    }));

  it('limits batches per session', () =>
    withServer({ RATE_BATCHES_PER_SESSION: '4' }, async (server) => {
      const campaignId = await makeCampaign(server);
      const id = sessionId();
      const statuses = [];
      for (let seq = 0; seq < 5; seq++) statuses.push((await postBatch(server, campaignId, batchOf({ sessionId: id, seq }))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      expect((await postBatch(server, campaignId, batchOf())).status).toBe(200);
    }));

  it('limits new sessions per campaign whatever the address (X-Forwarded-For is not trusted by default)', () =>
    withServer({ RATE_NEW_SESSIONS_PER_IP: '0', RATE_NEW_SESSIONS_PER_CAMPAIGN: '5' }, async (server) => {
      const campaignId = await makeCampaign(server);
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await postBatch(server, campaignId, batchOf(), { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect((await postBatch(server, await makeCampaign(server), batchOf())).status).toBe(200);
    }));

  it('limits batches per IP before reading the body', () =>
    withServer({ RATE_BATCHES_PER_IP: '20' }, async (server) => {
      const campaignId = await makeCampaign(server);
      const statuses = [];
      for (let i = 0; i < 22; i++) statuses.push((await postBatch(server, campaignId, Buffer.from('not even json'))).status);
      expect(statuses).toEqual([...Array(20).fill(400), 429, 429]);
    }));

  it('counts refused requests too: unknown campaigns and preflights cannot be sent without bound', () =>
    withServer({ RATE_BATCHES_PER_IP: '10' }, async (server) => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await postBatch(server, unknown, batchOf())).status);
      for (let i = 0; i < 6; i++) {
        const preflight = await fetch(`${server.url}/api/v1/ingest/${unknown}`, { method: 'OPTIONS', headers: { origin: 'https://shop.example.com' } });
        statuses.push(preflight.status);
      }
      expect(statuses).toEqual([...Array(10).fill(404), 429, 429]);
    }));
});

describe('ingest sizes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('refuses a batch that inflates past 16 MB, but takes a 12 MB full snapshot', async () => {
    const campaignId = await makeCampaign(server);
    const big = (mb: number) =>
      zlib.gzipSync(
        JSON.stringify(
          batchOf({
            events: [
              {
                type: 2,
                data: { node: { type: 0, id: 1, childNodes: [], text: 'a'.repeat(mb * 1024 * 1024) }, initialOffset: { top: 0, left: 0 } },
                timestamp: Date.now(),
              },
            ],
          }),
        ),
      );
    expect((await postBatch(server, campaignId, big(12))).status).toBe(200);
    const refused = await postBatch(server, campaignId, big(17));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: 'Batch is larger than 16777216 bytes once decompressed' });
  });
});
