import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId, type TestEvent } from './ingest-support.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';
import type { Session } from '../../common/api-types.js';
import { BAD_AFTER, TOO_MANY_STREAMS_NODE, TOO_MANY_STREAMS_USER } from '../../server/live/streams.js';
import { gzipSync } from 'node:zlib';
import { insertEncodedChunk } from '../../server/recordings/seed.js';
import { receivedChunk } from '../../server/storage/chunk-codec.js';
import { batchEventsSpan } from '../../server/storage/scan-batch.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaignId: string;
const open: SseClient[] = [];

const listUrl = (campaign = campaignId) => `${server.url}/api/v1/streaming/sessions/${campaign}/live`;
const replayUrl = (session: string, query = '', campaign = campaignId) => `${server.url}/api/v1/replay/live/${campaign}/${session}${query}`;

async function sse(url: string, headers: Record<string, string> = owner.headers): Promise<SseClient> {
  const client = await openSse(url, headers);
  open.push(client);
  return client;
}

/** A batch whose events carry their seq, so a test can tell which chunk an event came from. */
const marked = (seq: number, start = Date.now() - 1000): TestEvent[] => [
  { type: 3, data: { source: 2, type: 2, id: 1, x: seq, y: 1 }, timestamp: start + 20 },
  { type: 3, data: { source: 2, type: 2, id: 1, x: seq, y: 0 }, timestamp: start + 10 },
];

async function post(session: string, seq: number, events: TestEvent[] = marked(seq)) {
  const response = await postBatch(server, campaignId, { sessionId: session, seq, ...(seq === 0 ? { info: info() } : {}), events });
  expect(response.status).toBe(200);
  return response;
}

const seqsOf = (client: SseClient) => client.messages.filter((m) => m.event === 'events').map((m) => Number(m.id));

beforeAll(async () => {
  server = await startServer({ LIVE_HEARTBEAT_MS: '200', LIVE_STREAMS_PER_USER: '3', LIVE_STREAMS_PER_NODE: '5' });
  owner = await userSession(server, 'Live Owner');
  campaignId = await makeCampaign(server, { ownerId: owner.userId });
});
afterAll(async () => {
  for (const client of open) client.close();
  await server?.close();
});

describe('owner rules', () => {
  it('answers 401 without sign-in, 404 for another workspace’s campaign, an unknown one or session', async () => {
    const session = sessionId();
    await post(session, 0, pageEvents());
    const stranger = await userSession(server, 'Live Stranger');
    for (const url of [listUrl(), replayUrl(session)]) {
      expect((await sse(url, {})).status).toBe(401);
      const other = await sse(url, stranger.headers);
      expect(other.status).toBe(404);
      expect(await other.body).not.toContain(session);
    }
    expect((await sse(listUrl('8a7e3c4e-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await sse(replayUrl(sessionId()))).status).toBe(404);
    const bad = await sse(replayUrl(session), { ...owner.headers, 'last-event-id': 'x' });
    expect(bad.status).toBe(400);
  });
});

describe('GET /api/v1/streaming/sessions/{campaignId}/live', () => {
  it('sends retry first, heartbeats, a session (the list item) when a batch is stored, and deleted', async () => {
    const client = await sse(listUrl());
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.retries[0] ?? (await client.waitFor(() => client.retries.length > 0), client.retries[0])).toBe(3000);
    await client.waitFor(() => client.comments.includes('hb'));

    const session = sessionId();
    await post(session, 0, pageEvents());
    const first = await client.next((m) => m.event === 'session' && (JSON.parse(m.data) as Session).sessionId === session);
    const list = (await (await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers })).json()) as { sessions: Session[] };
    // The list item as the list shows it, but for its star: the stream does not carry stars (the
    // page keeps the star it listed; a new session has none).
    const { starred, ...listed } = list.sessions.find((s) => s.sessionId === session)!;
    expect(starred).toBe(false);
    expect(JSON.parse(first.data)).toEqual(listed);

    await post(session, 1);
    const second = await client.next((m) => m.event === 'session');
    expect((JSON.parse(second.data) as Session).eventCount).toBe(5);

    const deleted = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/${session}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    const gone = await client.next((m) => m.event === 'deleted');
    expect(JSON.parse(gone.data)).toEqual({ id: session });
    client.close();
  });
});

describe('GET /api/v1/replay/live/{campaignId}/{sessionId}', () => {
  it('sends the stored chunks in order, then new ones as they are stored', async () => {
    const session = sessionId();
    await post(session, 0, pageEvents());
    await post(session, 1);
    const client = await sse(replayUrl(session));
    expect(client.status).toBe(200);
    await client.waitFor(() => seqsOf(client).length === 2);
    expect(seqsOf(client)).toEqual([0, 1]);
    await post(session, 2);
    await client.waitFor(() => seqsOf(client).length === 3);
    const last = client.messages.filter((m) => m.event === 'events').at(-1);
    const events = JSON.parse(last?.data ?? '[]') as TestEvent[];
    expect(events.map((e) => e.data.x)).toEqual([2, 2]);
    // In timestamp order, though the batch sent them the other way round.
    expect(events.map((e) => e.data.y)).toEqual([0, 1]);
    expect(seqsOf(client)).toEqual([0, 1, 2]);
    client.close();
  });

  it('sends a batch kept as received (a batch object around its events) as its events array', async () => {
    const session = sessionId();
    await post(session, 0, pageEvents());
    const events = marked(1).reverse();
    const body = Buffer.from(JSON.stringify({ sessionId: session, seq: 1, events }));
    await insertEncodedChunk(server.db, { campaignId, sessionId: session, seq: 1, ...receivedChunk(gzipSync(body), batchEventsSpan(body)!, events) });
    const client = await sse(replayUrl(session));
    await client.waitFor(() => seqsOf(client).length === 2);
    const second = client.messages.filter((m) => m.event === 'events')[1];
    expect(JSON.parse(second?.data ?? '[]')).toEqual(events);
    client.close();
  });

  it('resumes after Last-Event-ID (which wins over after=) without gaps or duplicates', async () => {
    const session = sessionId();
    for (let seq = 0; seq < 4; seq++) await post(session, seq, seq === 0 ? pageEvents() : marked(seq));
    const fromHeader = await sse(replayUrl(session, '?after=0'), { ...owner.headers, 'last-event-id': '1' });
    await fromHeader.waitFor(() => seqsOf(fromHeader).length === 2);
    const fromQuery = await sse(replayUrl(session, '?after=2'));
    await fromQuery.waitFor(() => seqsOf(fromQuery).length === 1);
    await post(session, 4);
    await fromHeader.waitFor(() => seqsOf(fromHeader).length === 3);
    await fromQuery.waitFor(() => seqsOf(fromQuery).length === 2);
    expect(seqsOf(fromHeader)).toEqual([2, 3, 4]);
    expect(seqsOf(fromQuery)).toEqual([3, 4]);
    fromHeader.close();
    fromQuery.close();
  });

  it('resumes after the batches the replay download carried: only newer ones, and a late lower seq in a gap once', async () => {
    const session = sessionId();
    for (const seq of [0, 1, 3]) await post(session, seq, seq === 0 ? pageEvents() : marked(seq));
    const download = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${session}`, { headers: owner.headers });
    const { batches } = (await download.json()) as { batches: string };
    expect(batches).toBe('3,2');
    const resumed = await sse(replayUrl(session, `?after=${batches}`));
    const fromStart = await sse(replayUrl(session));
    await fromStart.waitFor(() => seqsOf(fromStart).length === 3);
    await post(session, 2); // the tracker's retry of a batch that failed, after a later one
    await post(session, 4);
    await resumed.waitFor(() => seqsOf(resumed).length === 2);
    await fromStart.waitFor(() => seqsOf(fromStart).length === 5);
    await post(session, 2); // the same batch again: stored once, sent once
    await post(session, 5);
    await resumed.waitFor(() => seqsOf(resumed).includes(5));
    await fromStart.waitFor(() => seqsOf(fromStart).includes(5));
    expect(seqsOf(resumed)).toEqual([2, 4, 5]);
    expect(seqsOf(fromStart)).toEqual([0, 1, 3, 2, 4, 5]);
    const late = resumed.messages.find((m) => m.event === 'events' && m.id === '2');
    expect((JSON.parse(late?.data ?? '[]') as TestEvent[]).map((e) => e.data.x)).toEqual([2, 2]);
    resumed.close();
    fromStart.close();
  });

  it('refuses a bad after= with 400 and the reason', async () => {
    const session = sessionId();
    await post(session, 0, pageEvents());
    for (const after of ['x', '-1', '1e400', '3,4', '9,5-3', '9,5,3', '9,', '2147483647']) {
      const refused = await fetch(replayUrl(session, `?after=${encodeURIComponent(after)}`), { headers: owner.headers });
      expect(refused.status, after).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe(BAD_AFTER);
    }
  });

  it('sends ended and closes when the session is complete', async () => {
    const session = sessionId();
    await post(session, 0, pageEvents());
    const client = await sse(replayUrl(session));
    await client.waitFor(() => seqsOf(client).length === 1);
    await server.db
      .updateTable('sessions')
      .set({ last_activity_at: Date.now() - SESSION_IDLE_MS - 1000 })
      .where('id', '=', session)
      .execute();
    server.app.ctx.live.sessionChanged(campaignId, session);
    const ended = await client.next((m) => m.event === 'ended');
    expect(ended.data).toBe('{}');
    await client.ended;
  });

  it('tells the tracker through the ingest reply only while someone watches', async () => {
    const session = sessionId();
    const unwatched = await post(session, 0, pageEvents());
    expect(unwatched.headers.get('x-tapedeck-live')).toBeNull();
    expect(unwatched.headers.get('access-control-expose-headers')).toMatch(/X-Tapedeck-Live/i);
    const other = sessionId();
    await post(other, 0, pageEvents());
    const watcher = await sse(replayUrl(other));
    expect(watcher.status).toBe(200);
    const watched = await post(other, 1);
    expect(watched.headers.get('x-tapedeck-live')).toBe('1');
    // Another session of the campaign is not watched.
    expect((await post(session, 1)).headers.get('x-tapedeck-live')).toBeNull();
    watcher.close();
  });
});

describe('caps and disconnects', () => {
  it('bounds streams per user (429) and per node (503), and frees a place when a client goes away', async () => {
    // Streams of the tests before close as their clients go.
    await vi.waitFor(() => expect(server.app.ctx.liveStreams.size).toBe(0));
    const mine = [await sse(listUrl()), await sse(listUrl()), await sse(listUrl())];
    expect(mine.map((c) => c.status)).toEqual([200, 200, 200]);
    const refused = await sse(listUrl());
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.body)).toMatchObject({ error: TOO_MANY_STREAMS_USER });

    const second = await userSession(server, 'Live Second');
    const theirs = await makeCampaign(server, { ownerId: second.userId });
    const others = [await sse(listUrl(theirs), second.headers), await sse(listUrl(theirs), second.headers)];
    expect(others.map((c) => c.status)).toEqual([200, 200]);
    const full = await sse(listUrl(theirs), second.headers);
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toBe('5');
    expect(JSON.parse(await full.body)).toMatchObject({ error: TOO_MANY_STREAMS_NODE });

    mine[0].close();
    await vi.waitFor(() => expect(server.app.ctx.liveStreams.size).toBe(4));
    expect((await sse(listUrl())).status).toBe(200);
  });

  it('on shutdown sends every stream retry: 1000 and closes it', async () => {
    const other = await startServer();
    const user = await userSession(other, 'Shutdown Owner');
    const campaign = await makeCampaign(other, { ownerId: user.userId });
    const client = await openSse(`${other.url}/api/v1/streaming/sessions/${campaign}/live`, user.headers);
    expect(client.status).toBe(200);
    await client.waitFor(() => client.retries.length > 0);
    await other.close();
    await client.ended;
    expect(client.retries).toEqual([3000, 1000]);
  });
});
