import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { readChunks } from '../../server/storage/chunks.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { Campaign, ReplayEvent, ReplayResponse, Session } from '../../common/api-types.js';
import { createCampaign, rawGet } from './ingest-support.js';
import { LIVE_WINDOW_MS } from '../../common/limits.js';
import * as chunksInTimeOrder from '../../server/db/migrations/0020_chunks_in_time_order.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;

const event = (type: number, timestamp: number, data: unknown = {}): ReplayEvent => ({ type, data, timestamp });

async function replay(sessionId: string, headers: Record<string, string> = owner.headers, campaignId = campaign.id) {
  return fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${sessionId}`, { headers });
}

async function recordedSession(id: string, chunks: ReplayEvent[][], lastActivity = Date.now()) {
  await insertSession(server.db, {
    campaign_id: campaign.id,
    id,
    started_at: lastActivity - 60_000,
    last_activity_at: lastActivity,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
    remote_ip: '198.51.100.7',
    language: 'en-GB',
    timezone: 'Europe/London',
    cookies_enabled: 1,
    has_focus: 1,
    // Derived facts as ingest keeps them on the row.
    duration_ms: 60_000,
    active_ms: 12_000,
    page_count: 2,
    click_count: 7,
    rage_click_count: 1,
    dead_click_count: 3,
    error_count: 2,
    failed_request_count: 4,
  });
  for (const [seq, events] of chunks.entries()) {
    expect(await appendChunk(server.db, { campaignId: campaign.id, sessionId: id, seq, events })).toBe(true);
  }
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Replay Owner');
  campaign = await createCampaign(server, owner.headers, 'Replays');
});
afterAll(async () => server?.close());

describe('GET /api/v1/replay/retrieve/:campaignId/:sessionId', () => {
  it('answers init and every chunk’s events in timestamp order', async () => {
    const chunks = [
      [event(4, 1000, { href: 'https://example.com/', width: 1280, height: 720 }), event(2, 1001, { node: { id: 1 } })],
      [event(3, 1500, { source: 1 }), event(3, 1200, { source: 2 }), event(3, 1300, { source: 3 })],
      [event(3, 2000, { text: 'naïve “quotes” \u2028 </script>' })],
    ];
    await recordedSession('replay-ordered-1', chunks);
    const response = await replay('replay-ordered-1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as ReplayResponse;
    expect(body.init).toEqual({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
      remoteIpAddress: '198.51.100.7',
      ipMode: 'full',
      language: 'en-GB',
      timezone: 'Europe/London',
      webdriver: false,
      cookiesEnabled: true,
      hasFocus: true,
      fullScreenEnabled: false,
      isBot: false,
      botReason: null,
      // The derived facts, as the sessions list has them: a saved replay keeps them.
      durationMs: 60_000,
      activeMs: 12_000,
      pageCount: 2,
      clickCount: 7,
      rageClickCount: 1,
      deadClickCount: 3,
      quickBackCount: 0,
      excessiveScrollCount: 0,
      errorCount: 2,
      failedRequestCount: 4,
      // When its last batch came: a saved copy tells "still recording" by it (common/recording-now.ts).
      lastActivityAt: expect.any(Number),
    });
    expect(body.events.map((e) => e.timestamp)).toEqual([1000, 1001, 1200, 1300, 1500, 2000]);
    expect(body.events[5].data).toEqual({ text: 'naïve “quotes” \u2028 </script>' });
    expect(body.events[0].data).toEqual({ href: 'https://example.com/', width: 1280, height: 720 });
    expect(body.complete).toBe(false);
  });

  it('opens with the server’s bot verdict and its reason, the same as the sessions list', async () => {
    // A crawler that does not set navigator.webdriver: the webdriver flag alone would call it human.
    await insertSession(server.db, {
      campaign_id: campaign.id,
      id: 'replay-crawler-1',
      started_at: Date.now() - 60_000,
      user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      webdriver: 0,
      is_bot: 1,
      bot_reason: 'crawler user agent',
    });
    await appendChunk(server.db, { campaignId: campaign.id, sessionId: 'replay-crawler-1', seq: 0, events: [event(4, 1000), event(2, 1001)] });
    const body = (await (await replay('replay-crawler-1')).json()) as ReplayResponse;
    expect(body.init).toMatchObject({ webdriver: false, isBot: true, botReason: 'crawler user agent' });
    const list = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?search=replay-crawler-1`, { headers: owner.headers });
    const [listed] = ((await list.json()) as { sessions: Session[] }).sessions;
    expect([listed.isBot, listed.botReason]).toEqual([body.init.isBot, body.init.botReason]);
  });

  it('sorts a batch that arrived late into place', async () => {
    await recordedSession('replay-late-batch', [
      [event(4, 100), event(2, 110)],
      [event(3, 400), event(3, 500)],
      [event(3, 200), event(3, 300)], // sent before seq 1 but stored after it
    ]);
    const body = (await (await replay('replay-late-batch')).json()) as ReplayResponse;
    expect(body.events.map((e) => e.timestamp)).toEqual([100, 110, 200, 300, 400, 500]);
  });

  it('stores a batch’s events in timestamp order, equal times in the order they came', async () => {
    await recordedSession('replay-stored-sorted', [[event(3, 30, { n: 1 }), event(3, 10, { n: 2 }), event(3, 30, { n: 3 }), event(3, 20, { n: 4 })]]);
    const stored: ReplayEvent[][] = [];
    for await (const events of readChunks(server.db, campaign.id, 'replay-stored-sorted')) stored.push(events);
    expect(stored[0].map((e) => (e.data as { n: number }).n)).toEqual([2, 4, 1, 3]);
    const row = await server.db
      .selectFrom('chunks')
      .select(['sorted', 'first_ts', 'last_ts'])
      .where('session_id', '=', 'replay-stored-sorted')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sorted: 1, first_ts: 10, last_ts: 30 });
  });

  /** A chunk row stored with the given JSON text (`sorted` 0: as stored before migration 0003). */
  async function storedChunk(sessionId: string, seq: number, text: string, sorted = 1) {
    const parsed = JSON.parse(text) as ReplayEvent[] | { events: ReplayEvent[] };
    const times = (Array.isArray(parsed) ? parsed : parsed.events).map((e) => e.timestamp);
    await server.db
      .insertInto('chunks')
      .values({
        campaign_id: campaign.id,
        session_id: sessionId,
        seq,
        first_ts: Math.min(...times),
        last_ts: Math.max(...times),
        event_count: times.length,
        byte_size: 1,
        data: gzipSync(text),
        created_at: Date.now(),
        sorted,
      })
      .execute();
  }

  it('streams chunks as stored, an events array or a batch kept as received', async () => {
    await recordedSession('replay-as-stored', []);
    // Stored text the server never re-serialises: its spacing comes through.
    await storedChunk('replay-as-stored', 0, '[ {"type":4,"data":{},"timestamp":1}, {"type":2,"data":{},"timestamp":2} ]');
    await storedChunk('replay-as-stored', 1, '{"sessionId":"replay-as-stored","seq":1,"events":[{"type":3,"data":{"x":1},"timestamp":3}]}');
    const path = `/api/v1/replay/retrieve/${campaign.id}/replay-as-stored`;
    const body = (await rawGet(server.url + path, owner.headers)).body.toString('utf8');
    expect(body).toContain('"events":[ {"type":4,"data":{},"timestamp":1}, {"type":2,"data":{},"timestamp":2} ,{"type":3,"data":{"x":1},"timestamp":3}]}');
  });

  it('sorts chunks stored before 0003 (unsorted) once, by migration 0019', async () => {
    await recordedSession('replay-old-unsorted', []);
    await storedChunk(
      'replay-old-unsorted',
      0,
      '[{"type":3,"data":{"n":1},"timestamp":9},{"type":3,"data":{"n":2},"timestamp":4},{"type":3,"data":{"n":3},"timestamp":9}]',
      0,
    );
    await chunksInTimeOrder.up(server.db);
    const row = await server.db
      .selectFrom('chunks')
      .select(['sorted', 'first_ts', 'last_ts'])
      .where('session_id', '=', 'replay-old-unsorted')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sorted: 1, first_ts: 4, last_ts: 9 });
    const body = (await (await replay('replay-old-unsorted')).json()) as ReplayResponse;
    expect(body.events.map((e) => (e.data as { n: number }).n)).toEqual([2, 1, 3]);
  });

  it('answers the same bytes whether a chunk is an events array or a batch kept as received', async () => {
    const chunks = [
      [event(4, 1000, { href: 'https://example.com/' }), event(2, 1001, { node: { id: 1 } })],
      [event(3, 1200), event(3, 1500, { text: 'naïve “quotes” \u2028 </script> "events":[' })],
      [event(3, 2000, { source: 2 })],
    ];
    await recordedSession('replay-arrays', chunks);
    await recordedSession('replay-kept', []);
    for (const [seq, events] of chunks.entries()) await storedChunk('replay-kept', seq, JSON.stringify({ sessionId: 'replay-kept', seq, events }));
    const answer = async (id: string) => (await rawGet(`${server.url}/api/v1/replay/retrieve/${campaign.id}/${id}`, owner.headers)).body.toString('utf8');
    const events = (text: string) => text.slice(text.indexOf('"events":'));
    expect(events(await answer('replay-kept'))).toBe(events(await answer('replay-arrays')));
    expect((JSON.parse(await answer('replay-kept')) as ReplayResponse).events.map((e) => e.timestamp)).toEqual([1000, 1001, 1200, 1500, 2000]);
  });

  it('answers a session of more chunks than one read takes, all of them in order', async () => {
    const chunks = Array.from({ length: 620 }, (_, c) => [event(3, c * 2, { c }), event(3, c * 2 + 1, { c })]);
    await recordedSession('replay-many-chunks', chunks);
    const body = (await (await replay('replay-many-chunks')).json()) as ReplayResponse;
    expect(body.events).toHaveLength(1240);
    expect(body.events.every((e, i) => e.timestamp === i)).toBe(true);
  });

  it('stores a retried batch once (chunks are append-only)', async () => {
    await recordedSession('replay-retried-1', [[event(4, 1), event(2, 2)]]);
    const again = await appendChunk(server.db, { campaignId: campaign.id, sessionId: 'replay-retried-1', seq: 0, events: [event(3, 99)] });
    expect(again).toBe(false);
    const stored: ReplayEvent[][] = [];
    for await (const events of readChunks(server.db, campaign.id, 'replay-retried-1')) stored.push(events);
    expect(stored).toEqual([[event(4, 1), event(2, 2)]]);
    const body = (await (await replay('replay-retried-1')).json()) as ReplayResponse;
    expect(body.events).toHaveLength(2);
  });

  it('calls a session live only while its last batch is under a minute old (issue 24, item 3)', async () => {
    await recordedSession('replay-live-now', [[event(4, 1), event(2, 2)]], Date.now() - 5_000);
    const leftAt = Date.now() - LIVE_WINDOW_MS - 1000;
    await recordedSession('replay-left', [[event(4, 1), event(2, 2)]], leftAt);
    const now = (await (await replay('replay-live-now')).json()) as ReplayResponse;
    expect(now).toMatchObject({ complete: false, live: true });
    // The visitor left two minutes ago: not live, though the tracker may still continue the session.
    const left = (await (await replay('replay-left')).json()) as ReplayResponse;
    expect(left).toMatchObject({ complete: false, live: false });
    // Its last batch travels with the replay: a copy saved now says "still recording" by the same rule later.
    expect(left.init.lastActivityAt).toBe(leftAt);
  });

  it('marks a session complete after 30 minutes without activity', async () => {
    await recordedSession('replay-finished', [[event(4, 1), event(2, 2)]], Date.now() - 31 * 60 * 1000);
    const body = (await (await replay('replay-finished')).json()) as ReplayResponse;
    expect(body.complete).toBe(true);
  });

  it('answers a session without chunks with no events', async () => {
    await recordedSession('replay-empty-1', []);
    const body = (await (await replay('replay-empty-1')).json()) as ReplayResponse;
    expect(body.events).toEqual([]);
  });

  it('streams a long session from many chunks, gzip on the wire', async () => {
    const chunks = Array.from({ length: 40 }, (_, c) =>
      Array.from({ length: 500 }, (_, i) => event(3, c * 500 + i, { source: 1, positions: [{ x: i, y: c, id: 7, timeOffset: 0 }] })),
    );
    await recordedSession('replay-long-session', chunks);
    const zipped = await rawGet(server.url + `/api/v1/replay/retrieve/${campaign.id}/replay-long-session`, {
      ...owner.headers,
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.headers['transfer-encoding']).toBe('chunked'); // streamed, not built whole
    const body = JSON.parse(gunzipSync(zipped.body).toString('utf8')) as ReplayResponse;
    expect(body.events).toHaveLength(20_000);
    expect(body.events.every((e, i) => e.timestamp === i)).toBe(true);
    expect(zipped.body.length).toBeLessThan(gunzipSync(zipped.body).length / 5);

    const plain = await rawGet(server.url + `/api/v1/replay/retrieve/${campaign.id}/replay-long-session`, owner.headers);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(plain.body.toString('utf8')) as ReplayResponse).events).toHaveLength(20_000);

    const refused = await rawGet(server.url + `/api/v1/replay/retrieve/${campaign.id}/replay-long-session`, {
      ...owner.headers,
      'accept-encoding': 'gzip;q=0',
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404 for an unknown session and 400 for a malformed session id', async () => {
    const unknown = await replay('no-such-session');
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'Session not found' }]);
    const bad = await replay('bad%20id!');
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'Invalid session id' }]);
    const short = await replay('abc');
    expect(short.status).toBe(400);
  });

  it('answers 400 for a malformed campaign id, 404 for an unknown campaign, 401 without a session', async () => {
    const bad = await replay('replay-ordered-1', owner.headers, 'not-a-campaign');
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'Invalid campaign id' }]);
    const unknown = await replay('replay-ordered-1', owner.headers, crypto.randomUUID());
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'Campaign not found' }]);
    const anonymous = await replay('replay-ordered-1', {});
    expect([anonymous.status, await anonymous.json()]).toEqual([401, { error: 'Unauthorized' }]);
  });

  it('does not answer a session of another campaign through this one', async () => {
    const other = await createCampaign(server, owner.headers, 'Other', 'example.org');
    const answer = await replay('replay-ordered-1', owner.headers, other.id);
    expect(answer.status).toBe(404);
  });
});

describe('GET /api/v1/replay/retrieve/demo', () => {
  it.each([
    ['false', 1366, 768],
    ['true', 390, 844],
  ])('answers the recorded demo for isMobile=%s, public and gzipped', async (isMobile, width, height) => {
    const zipped = await rawGet(server.url + `/api/v1/replay/retrieve/demo?isMobile=${isMobile}`, { 'accept-encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const { data } = JSON.parse(gunzipSync(zipped.body).toString('utf8')) as { data: ReplayEvent[] };
    expect(data.length).toBeGreaterThan(50);
    const meta = data.find((e) => e.type === 4) as { data: { width: number; height: number } };
    expect(meta.data).toMatchObject({ width, height });
    expect(data.some((e) => e.type === 2)).toBe(true);
    expect(data.filter((e) => e.type === 3).length).toBeGreaterThan(20);
    expect(data.every((e, i) => i === 0 || e.timestamp >= data[i - 1].timestamp)).toBe(true);
  });

  it('answers plain JSON to a caller that refuses gzip with q=0', async () => {
    const refused = await rawGet(server.url + '/api/v1/replay/retrieve/demo', { 'accept-encoding': 'gzip;q=0, deflate' });
    expect(refused.status).toBe(200);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(refused.body.toString('utf8')) as { data: ReplayEvent[] }).data.length).toBeGreaterThan(50);
  });

  it('answers plain JSON without gzip and defaults to the desktop recording', async () => {
    const plain = await rawGet(server.url + '/api/v1/replay/retrieve/demo', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const { data } = JSON.parse(plain.body.toString('utf8')) as { data: ReplayEvent[] };
    expect((data.find((e) => e.type === 4) as { data: { width: number } }).data.width).toBe(1366);
  });

  it('answers 400 for an isMobile that is neither true nor false', async () => {
    const response = await fetch(`${server.url}/api/v1/replay/retrieve/demo?isMobile=maybe`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/isMobile/);
  });
});
