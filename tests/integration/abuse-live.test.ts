import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { accessClaims, accessTokenExpiringIn, userSession } from '../helpers/auth.js';
import { createCampaign, openGet, type Owner } from '../helpers/held-get.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { storeWorstSession, type WorstSession } from '../helpers/worst-session.js';
import { ACCESS_COOKIE } from '../../server/auth/tokens.js';
import type { Campaign } from '../../common/api-types.js';

/** About 12 MB of event JSON whose chunks all overlap: a heavy replay, far more than the sockets buffer. */
const HEAVY: WorstSession = { chunks: 48, eventsPerChunk: 800, pad: 250, asReceived: 2 };
/** About 6 MB in time order, in chunks of about 270 KB: a light replay, still more than the sockets buffer. */
const LIGHT: WorstSession = { chunks: 24, eventsPerChunk: 800, pad: 250, inOrder: true };
const MB = 1024 * 1024;

let server: TestServer;
let owner: Owner;
let campaign: Campaign;
const open: SseClient[] = [];

const replayUrl = (session: string, of = campaign) => `${server.url}/api/v1/replay/live/${of.id}/${session}`;
const listUrl = (of = campaign) => `${server.url}/api/v1/streaming/sessions/${of.id}/live`;

async function sse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const client = await openSse(url, headers);
  open.push(client);
  return client;
}

/** A live stream whose client never reads a byte. */
const unread = (url: string, headers: Record<string, string>) => openGet(url, { ...headers, accept: 'text/event-stream' });

const waitUntil = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 10 });

beforeAll(async () => {
  server = await startServer({ LIVE_HEARTBEAT_MS: '200', STALLED_READER_SECONDS: '1', HEAVY_REPLAYS: '1', LIVE_MB_PER_USER: '1' });
  owner = await userSession(server, 'Live Abuser');
  campaign = await createCampaign(server, owner);
  await storeWorstSession(server.db, campaign.id, 'live-heavy-1', HEAVY);
  await storeWorstSession(server.db, campaign.id, 'live-light-1', LIGHT);
});
afterAll(async () => {
  for (const client of open) client.close();
  await server?.close();
});

describe('live replay streams that are never read', () => {
  it('send a heavy backlog under a heavy-replay slot, and are ended (freeing it) once they stall', async () => {
    const stalled = unread(replayUrl('live-heavy-1'), owner.headers);
    expect((await stalled.response).statusCode).toBe(200);
    await waitUntil(() => expect(server.app.ctx.replayGates.owners.counts.running).toBe(1));
    await waitUntil(() => {
      expect(server.app.ctx.liveStreams.size).toBe(0);
      expect(server.app.ctx.replayGates.owners.counts).toEqual({ running: 0, waiting: 0 });
    });
    stalled.request.destroy();
  });

  it("hold no more than the user's byte budget between them; a reader still gets every chunk once they are cut off", async () => {
    const user = owner.userId;
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, server.app.ctx.liveBudget.held(user))), 2);
    const stalled = Array.from({ length: 8 }, () => unread(replayUrl('live-light-1'), owner.headers));
    for (const s of stalled) expect((await s.response).statusCode).toBe(200);
    const reader = await sse(replayUrl('live-light-1'), owner.headers);
    await reader.waitFor(() => reader.messages.filter((m) => m.event === 'events').length === LIGHT.chunks, 15_000);
    await waitUntil(() => expect(server.app.ctx.liveStreams.size).toBe(1));
    clearInterval(sampler);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(1 * MB);
    expect(reader.messages.filter((m) => m.event === 'events').map((m) => Number(m.id))).toEqual([...Array(LIGHT.chunks).keys()]);
    reader.close();
    for (const s of stalled) s.request.destroy();
    await waitUntil(() => expect(server.app.ctx.liveBudget.held(user)).toBe(0));
  });
});

describe('a live stream lives as long as its access token', () => {
  it('ends when the token expires, with a retry hint; the same token then gets 401 (the client refreshes and reconnects)', async () => {
    const soon = await accessTokenExpiringIn(server, owner, 2);
    const headers = { cookie: `${ACCESS_COOKIE}=${soon}` };
    const list = await sse(listUrl(), headers);
    const replay = await sse(replayUrl('live-light-1'), headers);
    expect([list.status, replay.status]).toEqual([200, 200]);
    await within(Promise.all([list.ended, replay.ended]), 'the streams to end with their access token');
    expect(list.retries.at(-1)).toBe(3000);
    expect((await sse(listUrl(), headers)).status).toBe(401);
  });
});

/** The promise, or a failure naming what did not happen within 10 s. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited 10 s for ${what}`)), 10_000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('live streams end within one heartbeat when their sign-in ends', () => {
  const post = (path: string, headers: Record<string, string>, method = 'POST', body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const signInOf = (device: Owner) => accessClaims(device).sid as string;

  /** A list stream and a replay stream of the device, both read. */
  async function streamsOf(device: Owner, of: Campaign, session: string) {
    const list = await sse(listUrl(of), device.headers);
    const replay = await sse(replayUrl(session, of), device.headers);
    expect([list.status, replay.status]).toEqual([200, 200]);
    await replay.next((m) => m.event === 'events');
    return [list, replay];
  }

  it("a revoked device's streams end; the other device's streams go on", async () => {
    const laptop = await userSession(server, 'Two Devices');
    const phone = await userSession(server, 'Two Devices');
    const mine = await createCampaign(server, laptop);
    await storeWorstSession(server.db, mine.id, 'live-small-1', { chunks: 2, eventsPerChunk: 10, pad: 10, inOrder: true });
    const onLaptop = await streamsOf(laptop, mine, 'live-small-1');
    const onPhone = await streamsOf(phone, mine, 'live-small-1');
    expect((await post(`/api/v1/account/sign-ins/${signInOf(laptop)}`, phone.headers, 'DELETE')).status).toBe(200);
    await within(Promise.all(onLaptop.map((s) => s.ended)), "the revoked device's streams to end");
    const beats = onPhone.map((s) => s.comments.length);
    await within(Promise.all(onPhone.map((s, i) => s.waitFor(() => s.comments.length > beats[i] + 2))), "the other device's heartbeats");
  });

  it('"sign out everywhere" ends every stream of the user', async () => {
    const laptop = await userSession(server, 'Everywhere Owner');
    const phone = await userSession(server, 'Everywhere Owner');
    const mine = await createCampaign(server, laptop);
    await storeWorstSession(server.db, mine.id, 'live-small-2', { chunks: 2, eventsPerChunk: 10, pad: 10, inOrder: true });
    const streams = [...(await streamsOf(laptop, mine, 'live-small-2')), ...(await streamsOf(phone, mine, 'live-small-2'))];
    expect((await post('/api/v1/account/sign-out-everywhere', phone.headers)).status).toBe(200);
    await within(Promise.all(streams.map((s) => s.ended)), 'every stream of the user to end');
  });

  it('deleting the account ends its streams', async () => {
    const leaving = await userSession(server, 'Leaving Streamer');
    const mine = await createCampaign(server, leaving);
    await storeWorstSession(server.db, mine.id, 'live-small-3', { chunks: 2, eventsPerChunk: 10, pad: 10, inOrder: true });
    const streams = await streamsOf(leaving, mine, 'live-small-3');
    expect((await post('/api/v1/account', leaving.headers, 'DELETE', { confirm: 'leaving.streamer@example.test' })).status).toBe(200);
    await within(Promise.all(streams.map((s) => s.ended)), "the deleted account's streams to end");
  });
});
