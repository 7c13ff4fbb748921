import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readChunks } from '../../server/storage/chunks.js';
import { sessionRow } from '../../server/sessions/rows.js';
import { replayStream } from '../../server/replay/stream.js';
import { text } from 'node:stream/consumers';
import { makeCampaign, sessionId, info, pageEvents, postBatch, storedCounts } from './ingest-support.js';
import { settleStoredBatches } from '../../server/cluster/jobs.js';

describe('ingest: storing batches', () => {
  let server: TestServer;
  let campaignId: string;
  beforeAll(async () => {
    server = await startServer();
    campaignId = await makeCampaign(server, { domains: 'shop.example.com, 127.0.0.1:5000' });
  });
  afterAll(async () => server?.close());

  it('stores a first batch with its session row, CORS for the allowed origin and no cookies', async () => {
    const id = sessionId();
    const res = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ stored: true });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();

    const row = await server.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      campaign_id: campaignId,
      remote_ip: '127.0.0.1',
      country: null,
      language: 'en-GB',
      timezone: 'Europe/London',
      hardware_concurrency: 8,
      webdriver: 0,
      cookies_enabled: 1,
      has_focus: 1,
      user_agent: info().userAgent,
      screen_width: 1920,
      entry_url: 'https://shop.example.com/cart',
      referrer: 'https://search.example/',
      browser: 'Chrome 120',
      os: 'Linux',
      device: 'desktop',
      page_count: 1,
      event_count: 3,
      has_human_input: 1,
      is_bot: 0,
      bot_reason: null,
    });
    expect(row.byte_count).toBeGreaterThan(100);
    expect(row.last_activity_at - row.started_at).toBeGreaterThanOrEqual(2000);

    const chunks: unknown[][] = [];
    for await (const events of readChunks(server.db, campaignId, id)) chunks.push(events);
    expect(chunks).toEqual([pageEvents(chunks[0] ? (chunks[0][0] as { timestamp: number }).timestamp : 0)]);
  });

  it("keeps a tracker's gzip body as it arrived, and replays it with re-serialised chunks in time order", async () => {
    const id = sessionId();
    const start = Date.now() - 10_000;
    const first = zlib.gzipSync(JSON.stringify({ sessionId: id, seq: 0, info: info(), events: pageEvents(start) }));
    expect((await postBatch(server, campaignId, first)).status).toBe(200);
    // Out of time order: stored sorted and re-serialised. Then a kept body overlapping it in time (a late batch).
    const click = (t: number, x: number) => ({ type: 3, data: { source: 2, type: 2, id: 1, x, y: 0 }, timestamp: start + t });
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: [click(4000, 2), click(3000, 1)] })).status).toBe(200);
    const late = zlib.gzipSync(JSON.stringify({ sessionId: id, seq: 2, events: [click(3500, 3), click(4500, 4)] }));
    expect((await postBatch(server, campaignId, late)).status).toBe(200);

    const rows = await server.db.selectFrom('chunks').select(['seq', 'data']).where('session_id', '=', id).orderBy('seq').execute();
    const stored = rows.map((row) => Buffer.from(row.data));
    expect(stored[0].equals(first)).toBe(true);
    expect(zlib.gunzipSync(stored[1]).toString()).toBe(JSON.stringify([click(3000, 1), click(4000, 2)]));
    expect(stored[2].equals(late)).toBe(true);
    const session = await server.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const replayed = JSON.parse(await text(replayStream(server.db, session))) as { events: { timestamp: number; data: { x?: number } }[] };
    expect(replayed.events.map((e) => e.timestamp - start)).toEqual([0, 5, 2000, 3000, 3500, 4000, 4500]);
    expect(replayed.events.slice(3).map((e) => e.data.x)).toEqual([1, 3, 2, 4]);
    expect(session.event_count).toBe(7);
  });

  it('stores a retried (session, seq) once and counts it once', async () => {
    const id = sessionId();
    const batch = { sessionId: id, seq: 0, info: info(), events: pageEvents() };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await (await postBatch(server, campaignId, batch)).json());
    expect(answers).toEqual([{ stored: true }, { stored: false }, { stored: false }]);
    const next = await postBatch(server, campaignId, { sessionId: id, seq: 1, events: pageEvents() }, { gzip: false });
    expect(await next.json()).toEqual({ stored: true });
    const row = await server.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event_count: 6, page_count: 2 });
    const chunks = await server.db.selectFrom('chunks').select('seq').where('session_id', '=', id).orderBy('seq').execute();
    expect(chunks.map((c) => c.seq)).toEqual([0, 1]);
  });

  it('accepts an origin whose host and port are listed, refuses another port', async () => {
    const ok = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() }, { origin: 'http://127.0.0.1:5000' });
    expect(ok.status).toBe(200);
    const before = await storedCounts(server, campaignId);
    const res = await postBatch(
      server,
      campaignId,
      { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() },
      { origin: 'http://127.0.0.1:5001' },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'Origin not allowed for this campaign' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await storedCounts(server, campaignId)).toEqual(before);
  });

  it('takes a batch whatever its content type, or without one', async () => {
    const json = JSON.stringify({ sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
    const untyped = await fetch(`${server.url}/api/v1/ingest/${campaignId}`, {
      method: 'POST',
      body: new Uint8Array(zlib.gzipSync(json)),
      headers: { origin: 'https://shop.example.com' },
    });
    expect(untyped.status).toBe(200);
    const typed = await postBatch(
      server,
      campaignId,
      { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() },
      { gzip: false, headers: { 'content-type': 'application/json' } },
    );
    expect(typed.status).toBe(200);
  });

  it('answers a preflight only for allowed origins', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/v1/ingest/${campaignId}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight('https://shop.example.com');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    const refused = await preflight('https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('derives the bot verdict with its reason', async () => {
    const verdictFor = async (overrides: Record<string, unknown>, events = pageEvents()) => {
      const id = sessionId();
      expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(overrides), events })).status).toBe(200);
      return server.db.selectFrom('sessions').select(['is_bot', 'bot_reason', 'webdriver']).where('id', '=', id).executeTakeFirstOrThrow();
    };
    expect(await verdictFor({ webdriver: true })).toEqual({ is_bot: 1, bot_reason: 'Automated browser: navigator.webdriver is true', webdriver: 1 });
    expect(
      await verdictFor({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36' }),
    ).toEqual({
      is_bot: 1,
      bot_reason: 'Crawler or headless browser user agent',
      webdriver: 0,
    });
    const start = Date.now() - 60_000;
    const scrolls = Array.from({ length: 250 }, (_, i) => ({ type: 3, data: { source: 3, id: 1, x: 0, y: i }, timestamp: start + 100 + i }));
    const quiet = [pageEvents(start)[0], pageEvents(start)[1], ...scrolls];
    expect(await verdictFor({}, quiet)).toEqual({ is_bot: 1, bot_reason: 'No human input: no mouse, touch or pointer activity', webdriver: 0 });
  });

  it('clears a no-input verdict when human input arrives, and marks ended sessions without input', async () => {
    const start = Date.now() - 60_000;
    const scrolls = Array.from({ length: 250 }, (_, i) => ({ type: 3, data: { source: 3, id: 1, x: 0, y: i }, timestamp: start + 100 + i }));
    const id = sessionId();
    await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: [pageEvents(start)[1], ...scrolls] });
    const verdict = () => server.db.selectFrom('sessions').select(['is_bot', 'bot_reason']).where('id', '=', id).executeTakeFirstOrThrow();
    expect((await verdict()).is_bot).toBe(1);
    await postBatch(server, campaignId, { sessionId: id, seq: 1, events: [pageEvents()[2]] });
    expect(await verdict()).toEqual({ is_bot: 0, bot_reason: null });

    // A short session without input that has been idle for over 30 minutes has ended: a bot,
    // marked off ingest's path, by the housekeeping job or before a read of its campaign.
    const other = await makeCampaign(server);
    const ended = (id: string) =>
      sessionRow({ campaign_id: other, id, started_at: Date.now() - 40 * 60_000, last_activity_at: Date.now() - 31 * 60_000, event_count: 2 });
    const botReason = async (id: string) =>
      (await server.db.selectFrom('sessions').select(['bot_reason']).where('id', '=', id).executeTakeFirstOrThrow()).bot_reason;
    await server.db.insertInto('sessions').values(ended('quiet-1')).execute();
    await postBatch(server, other, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
    expect(await botReason('quiet-1')).toBe(null); // an admission sweeps nothing
    await settleStoredBatches(server.db);
    expect(await botReason('quiet-1')).toBe('No human input: no mouse, touch or pointer activity');
    await server.db.insertInto('sessions').values(ended('quiet-2')).execute();
    await server.app.ctx.afterStored.flushFor(other, 'verdicts'); // as the list and the insights do before they read
    expect(await botReason('quiet-2')).toBe('No human input: no mouse, touch or pointer activity');
  });
});

describe('ingest: refusals write nothing', () => {
  let server: TestServer;
  let campaignId: string;
  const batch = () => ({ sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
  beforeAll(async () => {
    server = await startServer();
    campaignId = await makeCampaign(server);
  });
  afterAll(async () => server?.close());

  const refusals: [string, () => Promise<{ campaign: string; body: unknown; origin?: string | null; gzip?: boolean }>, number, string][] = [
    ['an unknown campaign', async () => ({ campaign: '00000000-0000-4000-8000-000000000000', body: batch() }), 404, 'Unknown campaign'],
    ['a malformed campaign id', async () => ({ campaign: 'not-a-campaign', body: batch() }), 404, 'Unknown campaign'],
    ['no Origin header', async () => ({ campaign: campaignId, body: batch(), origin: null }), 403, 'Origin header required'],
    [
      'an origin not in the domains',
      async () => ({ campaign: campaignId, body: batch(), origin: 'https://evil.example' }),
      403,
      'Origin not allowed for this campaign',
    ],
    [
      'a campaign not started',
      async () => ({ campaign: await makeCampaign(server, { start: Date.now() + 60_000, end: Date.now() + 120_000 }), body: batch() }),
      403,
      'Campaign has not started',
    ],
    [
      'a campaign that ended',
      async () => ({ campaign: await makeCampaign(server, { start: Date.now() - 120_000, end: Date.now() - 60_000 }), body: batch() }),
      403,
      'Campaign has ended',
    ],
    ['an empty body', async () => ({ campaign: campaignId, body: '', gzip: false }), 400, 'Empty body'],
    ['malformed JSON', async () => ({ campaign: campaignId, body: '{"sessionId": "abc', gzip: false }), 400, 'Malformed JSON body'],
    ['malformed JSON inside gzip', async () => ({ campaign: campaignId, body: '[1, 2' }), 400, 'Malformed JSON body'],
    ['a body that is not an object', async () => ({ campaign: campaignId, body: [batch()] }), 400, 'The batch must be a JSON object'],
    [
      'a bad session id',
      async () => ({ campaign: campaignId, body: { ...batch(), sessionId: 'a b' } }),
      400,
      'sessionId must be 8 to 64 letters, digits, "-" or "_"',
    ],
    ['a negative seq', async () => ({ campaign: campaignId, body: { ...batch(), seq: -1 } }), 400, 'seq must be a whole number from 0 to 2147483646'],
    ['no events', async () => ({ campaign: campaignId, body: { ...batch(), events: [] } }), 400, 'events must be a non-empty array'],
    [
      'an event of unknown type',
      async () => ({ campaign: campaignId, body: { ...batch(), events: [{ type: 9, data: {}, timestamp: Date.now() }] } }),
      400,
      'events[0].type must be an rrweb event type (0 to 8)',
    ],
    [
      'an event without data',
      async () => ({ campaign: campaignId, body: { ...batch(), events: [{ type: 2, timestamp: Date.now() }] } }),
      400,
      'events[0].data must be an object',
    ],
    [
      'a new session without info',
      async () => ({ campaign: campaignId, body: { ...batch(), info: undefined } }),
      400,
      'The first batch of a session must carry its info',
    ],
    [
      'info that is not an object',
      async () => ({ campaign: campaignId, body: { ...batch(), info: 'hi' } }),
      400,
      "info must be an object with the visit's details",
    ],
    [
      'too many events',
      async () => ({ campaign: campaignId, body: { ...batch(), events: Array.from({ length: 10_001 }, () => pageEvents()[2]) } }),
      413,
      'A batch holds at most 10000 events',
    ],
    [
      'broken gzip',
      async () => ({ campaign: campaignId, body: Buffer.concat([zlib.gzipSync(JSON.stringify(batch())).subarray(0, 30)]) }),
      400,
      'Body is not valid gzip',
    ],
    [
      'a gzip bomb',
      async () => ({ campaign: campaignId, body: zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20)) }),
      413,
      'Batch is larger than 16777216 bytes once decompressed',
    ],
    ['a body over the cap', async () => ({ campaign: campaignId, body: Buffer.alloc(4 * 1024 * 1024 + 1, 0x20) }), 413, 'Request body is too large'],
  ];

  it.each(refusals)('refuses %s', async (_name, make, status, error) => {
    const { campaign, body, origin, gzip } = await make();
    const before = await storedCounts(server, campaign);
    const res = await postBatch(server, campaign, body, { origin, gzip });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error });
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await storedCounts(server, campaign)).toEqual(before);
  });

  it('keeps CORS on refusals to allowed origins, so the tracker can read them and stop', async () => {
    const ended = await makeCampaign(server, { start: Date.now() - 120_000, end: Date.now() - 60_000 });
    const res = await postBatch(server, ended, batch());
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
  });
});

describe('ingest: the session limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('admits exactly 5 of 50 visitors arriving at once on a limit-5 campaign', async () => {
    const campaignId = await makeCampaign(server, { limit: 5 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 403)).toHaveLength(45);
    const refusal = answers.find((r) => r.status === 403) as Response;
    expect(await refusal.json()).toEqual({ error: 'Session limit reached for this campaign' });
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 5, chunks: 5 });
    const campaign = await server.db.selectFrom('campaigns').select('session_count').where('id', '=', campaignId).executeTakeFirstOrThrow();
    expect(campaign.session_count).toBe(5);
  });

  it('keeps taking batches of admitted sessions after the limit is reached', async () => {
    const campaignId = await makeCampaign(server, { limit: 1 });
    const id = sessionId();
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() })).status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() })).status).toBe(403);
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: pageEvents() })).status).toBe(200);
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 2 });
  });

  it('has no limit when the limit is 0', async () => {
    const campaignId = await makeCampaign(server, { limit: 0 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
  });
});
