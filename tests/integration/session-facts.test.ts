import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSession } from '../helpers/auth.js';
import { sessionRow, type NewSession } from '../../server/sessions/rows.js';
import type { Session, SessionsResponse } from '../../common/api-types.js';
import { info, makeCampaign, postBatch, serverWithOwner, sessionId, type TestEvent } from './ingest-support.js';

let { server, owner } = {} as Awaited<ReturnType<typeof serverWithOwner>>;

beforeAll(async () => {
  ({ server, owner } = await serverWithOwner('Facts Owner'));
});
afterAll(async () => server?.close());

async function list(campaignId: string, query = '', headers = owner.headers): Promise<SessionsResponse> {
  const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/${query ? `?${query}` : ''}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as SessionsResponse;
}

const click = (t: number, x = 50, y = 50): TestEvent => ({ type: 3, data: { source: 2, type: 2, id: 4, x, y }, timestamp: t });
const move = (t: number): TestEvent => ({ type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] }, timestamp: t });
const mutation = (t: number): TestEvent => ({ type: 3, data: { source: 0, adds: [], removes: [], texts: [], attributes: [] }, timestamp: t });
const meta = (t: number, href: string): TestEvent => ({ type: 4, data: { href, width: 1280, height: 720 }, timestamp: t });
const full = (t: number): TestEvent => ({ type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: t });
const custom = (t: number, tag: string, payload: object): TestEvent => ({ type: 5, data: { tag, payload }, timestamp: t });

async function storedEvents(campaignId: string, id: string): Promise<string> {
  const chunks = await server.db.selectFrom('chunks').select('data').where('campaign_id', '=', campaignId).where('session_id', '=', id).execute();
  return chunks.map((c) => gunzipSync(c.data).toString('utf8')).join('\n');
}

describe('facts derived at ingest', () => {
  it('keeps the session row up to date batch by batch: pages, clicks, rage and dead clicks, errors, failed requests, active time', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const t = Date.now() - 60_000;
    const first = [meta(t, 'https://shop.example.com/?q=1'), full(t + 1), move(t + 1000), click(t + 2000), click(t + 2300, 60, 55)];
    // The third click of the burst comes in the next batch: the carried state finds the rage click.
    const second = [
      click(t + 2600, 45, 50),
      mutation(t + 2650),
      move(t + 3000),
      click(t + 5000, 400, 300), // nothing answers it: dead
      move(t + 7000),
      custom(t + 7100, 'tapedeck/error', { message: 'Cannot read properties of undefined', source: 'https://shop.example.com/app.js:12', stack: '' }),
      custom(t + 7200, 'tapedeck/console', { level: 'warn', message: 'slow' }),
      custom(t + 7300, 'tapedeck/request', { method: 'GET', url: 'https://shop.example.com/api/missing', status: 404, durationMs: 20 }),
      meta(t + 8000, 'https://shop.example.com/checkout#pay'),
      full(t + 8001),
      move(t + 9000),
    ];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: first })).status).toBe(200);
    let [session] = (await list(campaignId)).sessions;
    expect(session).toMatchObject({ clickCount: 2, rageClickCount: 0, pages: ['/'], exitUrl: '/', activeMs: 1300 });
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: second })).status).toBe(200);
    [session] = (await list(campaignId)).sessions;
    expect(session).toMatchObject({
      clickCount: 4,
      rageClickCount: 1,
      deadClickCount: 1,
      errorCount: 1,
      failedRequestCount: 1,
      pages: ['/', '/checkout'],
      entryUrl: 'https://shop.example.com/cart',
      exitUrl: '/checkout',
      pageCount: 2,
      activeMs: 8000,
    } satisfies Partial<Session>);
    // Duration follows the row's own clock as each batch lands, not the visitor's timestamps, but
    // is never shorter than the active time it holds (here the batches landed within 3 s).
    expect(session.durationMs).toBe(Math.max(session.lastActivityAt - session.startedAt, session.activeMs));
    expect(session.activeMs).toBeLessThanOrEqual(session.durationMs);
  });

  it('masks e-mails and digit runs in captured events, whatever the sender did', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const t = Date.now() - 5000;
    const events = [
      full(t),
      custom(t + 1, 'tapedeck/error', { message: 'no account for jane@mail.example.com, card 4111111111111111', source: 'app.js:1', stack: 'at /u/12345678' }),
    ];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events })).status).toBe(200);
    const stored = await storedEvents(campaignId, id);
    expect(stored).toContain('no account for [email], card ****************');
    expect(stored).not.toMatch(/jane@|4111111111111111|12345678/);
  });

  it('drops console messages when the campaign turned their capture off, and says so to the tracker', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, captureConsole: false });
    const id = sessionId();
    const t = Date.now() - 5000;
    const events = [
      full(t),
      custom(t + 1, 'tapedeck/console', { level: 'error', message: 'secret state' }),
      custom(t + 2, 'tapedeck/error', { message: 'boom', source: '', stack: '' }),
    ];
    const response = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ stored: true, console: false });
    const onlyConsole = await postBatch(server, campaignId, {
      sessionId: id,
      seq: 1,
      events: [custom(t + 3, 'tapedeck/console', { level: 'warn', message: 'more' })],
    });
    expect(onlyConsole.status).toBe(202);
    const stored = await storedEvents(campaignId, id);
    expect(stored).not.toContain('secret state');
    expect(stored).not.toContain('tapedeck/console');
    expect((await list(campaignId)).sessions[0].errorCount).toBe(1);
  });

  it('refuses captured events larger than their bounds or of the wrong shape', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const t = Date.now() - 5000;
    for (const payload of [
      { message: 'x'.repeat(501), source: '', stack: '' },
      { message: 'x', source: '', stack: '', body: 'no' },
    ]) {
      const response = await postBatch(server, campaignId, {
        sessionId: sessionId(),
        seq: 0,
        info: info(),
        events: [full(t), custom(t + 1, 'tapedeck/error', payload)],
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('events[1].data.payload is not a well-formed tapedeck/error event');
    }
  });
});

describe('filters and sorts', () => {
  let campaignId: string;
  const T0 = Date.now() - 10 * 86_400_000;
  // Ten sessions, one per hour; each fact set where a test can tell them apart.
  const rows = (): NewSession[] =>
    Array.from({ length: 10 }, (_, i) => ({
      campaign_id: campaignId,
      id: `facts-${i}-session`,
      started_at: T0 + i * 3_600_000,
      last_activity_at: T0 + i * 3_600_000 + (i + 1) * 60_000,
      active_ms: ((i * 7) % 10) * 1000,
      error_count: i % 3 === 0 ? i : 0,
      rage_click_count: i === 4 || i === 7 ? 1 : 0,
      dead_click_count: i === 2 ? 3 : 0,
      pages: i % 2 ? '/\n/checkout/pay' : '/\n/blog',
      country_code: i < 3 ? 'DE' : 'FR',
      country: i < 3 ? 'Germany' : 'France',
      device: i === 5 ? 'mobile' : i === 6 ? 'tablet' : 'desktop',
      browser: i === 8 ? 'Firefox 128' : 'Chrome 131',
      browser_name: i === 8 ? 'firefox' : 'chrome',
      is_bot: i === 9 ? 1 : 0,
    }));

  beforeAll(async () => {
    campaignId = await makeCampaign(server, { ownerId: owner.userId });
    await server.db.insertInto('sessions').values(rows().map(sessionRow)).execute();
  });

  const ids = async (query: string, limit = 3) => {
    const found: number[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams(query);
      params.set('limit', String(limit));
      if (cursor) params.set('cursor', cursor);
      const body = await list(campaignId, params.toString());
      expect(body.counts).toEqual({ total: 10, human: 9, bot: 1 });
      found.push(...body.sessions.map((s) => Number(s.sessionId.split('-')[1])));
      cursor = body.nextCursor;
    } while (cursor);
    return found;
  };

  it.each([
    ['', [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]],
    [`from=${T0 + 2 * 3_600_000}&to=${T0 + 5 * 3_600_000}`, [4, 3, 2]],
    ['minDuration=180000&maxDuration=300000', [4, 3, 2]],
    ['url=CHECKOUT', [9, 7, 5, 3, 1]],
    ['url=%25', []],
    ['country=de', [2, 1, 0]],
    ['device=mobile', [5]],
    ['device=tablet', [6]],
    ['browser=Firefox', [8]],
    ['hasErrors=true', [9, 6, 3]],
    ['hasRageClicks=true', [7, 4]],
    ['hasDeadClicks=true', [2]],
    ['type=bot', [9]],
    ['hasErrors=true&type=human&country=FR', [6, 3]],
    ['sort=longest', [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]],
    ['sort=active', [7, 4, 1, 8, 5, 2, 9, 6, 3, 0]],
    ['sort=errors', [9, 6, 3, 8, 7, 5, 4, 2, 1, 0]],
    ['sort=errors&hasRageClicks=true', [7, 4]],
    ['sort=longest&device=desktop', [9, 8, 7, 4, 3, 2, 1, 0]],
  ])('?%s pages through the matching sessions in order', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it('answers the new fields on each session', async () => {
    const body = await list(campaignId, 'hasDeadClicks=true');
    expect(body.sessions[0]).toMatchObject({ deadClickCount: 3, countryCode: 'DE', pages: ['/', '/blog'], durationMs: 180_000 });
  });
});

describe('DELETE /api/v1/streaming/sessions/:campaignId/:sessionId', () => {
  const remove = (campaignId: string, id: string, headers: Record<string, string> = owner.headers) =>
    fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/${id}`, { method: 'DELETE', headers });

  it('deletes the session and its chunks; the replay is then 404 and the counts drop by one', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const [gone, kept] = [sessionId(), sessionId()];
    for (const id of [gone, kept]) {
      for (const seq of [0, 1])
        expect((await postBatch(server, campaignId, { sessionId: id, seq, info: info(), events: [full(Date.now() - 1000 + seq)] })).status).toBe(200);
    }
    expect((await list(campaignId)).counts.total).toBe(2);
    const response = await remove(campaignId, gone);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect((await list(campaignId)).counts.total).toBe(1);
    const replay = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${gone}`, { headers: owner.headers });
    expect(replay.status).toBe(404);
    const chunks = await server.db.selectFrom('chunks').select('session_id').where('campaign_id', '=', campaignId).execute();
    expect(chunks.map((c) => c.session_id)).toEqual([kept, kept]);
    expect((await remove(campaignId, gone)).status).toBe(404);
  });

  it("after an erasure, the visitor's next batches start a new session that holds nothing of the erased one", async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const click = (at: number) => ({ type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 10 }, timestamp: at });
    // Two batches: the server now holds (and may keep) the row as the second left it.
    expect(
      (await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: [full(Date.now() - 9000), click(Date.now() - 8000)] })).status,
    ).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: [click(Date.now() - 7000)] })).status).toBe(200);
    expect((await remove(campaignId, id)).status).toBe(200);

    const next = await postBatch(server, campaignId, { sessionId: id, seq: 2, events: [click(Date.now() - 3000)] });
    expect(next.status).toBe(400);
    expect(await next.json()).toMatchObject({ error: 'The first batch of a session must carry its info' });
    // The tab starts over: one batch, one click, nothing carried from before the erasure.
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: [full(Date.now() - 2000)] })).status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: [click(Date.now() - 1000)] })).status).toBe(200);
    const row = await server.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ batch_count: 2, click_count: 1 });
    const chunks = await server.db.selectFrom('chunks').select('seq').where('session_id', '=', id).orderBy('seq').execute();
    expect(chunks.map((c) => c.seq)).toEqual([0, 1]);
  });

  it('is for the workspace only: an outsider gets 404 as for an unknown campaign and nothing is deleted; no session cookie gets 401', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: [full(Date.now() - 1000)] })).status).toBe(200);
    const stranger = await userSession(server, 'Someone Else');
    const response = await remove(campaignId, id, stranger.headers);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Campaign not found' });
    expect((await remove(campaignId, id, { origin: server.config.publicUrl })).status).toBe(401);
    expect((await remove(campaignId, id, { ...owner.headers, origin: 'https://evil.example' })).status).toBe(403);
    expect((await list(campaignId)).counts.total).toBe(1);
  });
});
