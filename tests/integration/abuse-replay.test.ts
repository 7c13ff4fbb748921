import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { createCampaign, openGet, type Owner } from '../helpers/held-get.js';
import { storeWorstSession, type StoredSession, type WorstSession } from '../helpers/worst-session.js';
import { readChunks } from '../../server/storage/chunks.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import { MERGE_BUDGET_BYTES, replayStream, type MergeStats } from '../../server/replay/stream.js';
import { REPLAYS_BUSY } from '../../server/replay/gate.js';
import type { Campaign, ReplayEvent, ReplayResponse } from '../../common/api-types.js';
import type { CreatedShare } from '../../common/api/shares.js';

/** The events a whole-session sort would give: every stored chunk in seq order, stable-sorted by time. */
async function referenceOrder(server: TestServer, campaignId: string, sessionId: string): Promise<ReplayEvent[]> {
  const all: ReplayEvent[] = [];
  for await (const events of readChunks(server.db, campaignId, sessionId)) all.push(...events);
  return all.sort((a, b) => a.timestamp - b.timestamp);
}

const id = (e: ReplayEvent) => {
  const { c, i } = e.data as { c: number; i: number };
  return `${c}:${i}`;
};

async function text(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** The replay straight from the stream function, with a merge budget and its statistics. */
async function streamed(server: TestServer, campaignId: string, sessionId: string, mergeBudget?: number) {
  const session = await server.db
    .selectFrom('sessions')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const stats: MergeStats = { peakOpenBytes: 0, opened: 0, overflows: 0 };
  const body = JSON.parse(await text(replayStream(server.db, session, Date.now(), { mergeBudget, stats }))) as ReplayResponse;
  return { events: body.events, stats };
}

/** The promise's value, or a failure naming what did not happen within 10 s (not the test's bare timeout). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited 10 s for ${what}`)), 10_000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Process RSS sampled every 20 ms (the server runs in this process). */
function rssSampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

const MB = 1024 * 1024;
/** A test-sized maximum session: about 24 MB of event JSON in 96 chunks that all overlap. */
const MAXIMUM: WorstSession = { chunks: 96, eventsPerChunk: 800, pad: 250, asReceived: 4 };

describe('replay of a session whose chunks overlap everywhere', () => {
  let server: TestServer;
  let owner: Owner;
  let campaign: Campaign;
  const worst: WorstSession = { chunks: 40, eventsPerChunk: 300, pad: 20, asReceived: 3 };

  beforeAll(async () => {
    // Three at once, two running: one owner may take both slots here (by default, one).
    server = await startServer({ HEAVY_REPLAYS_PER_OWNER: '2' });
    owner = await userSession(server, 'Abuse Owner');
    campaign = await createCampaign(server, owner);
    await storeWorstSession(server.db, campaign.id, 'worst-ordered-1', worst);
  });
  afterAll(async () => server?.close());

  it('answers every event in exact timestamp order, equal times as a stable sort of the stored chunks gives them', async () => {
    const response = await fetch(`${server.url}/api/v1/replay/retrieve/${campaign.id}/worst-ordered-1`, { headers: owner.headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ReplayResponse;
    const reference = await referenceOrder(server, campaign.id, 'worst-ordered-1');
    expect(body.events).toHaveLength(worst.chunks * worst.eventsPerChunk);
    expect(body.events.map(id)).toEqual(reference.map(id));
    expect(body.events).toEqual(reference);
  });

  it('opens chunks as the merge reaches them and stays within its budget, giving up exact order only past it', async () => {
    const reference = await referenceOrder(server, campaign.id, 'worst-ordered-1');
    // Every chunk spans the whole session, so exact order needs them all open: about 1 MB here.
    const roomy = await streamed(server, campaign.id, 'worst-ordered-1', 4 * MB);
    expect(roomy.events.map(id)).toEqual(reference.map(id));
    expect(roomy.stats).toMatchObject({ opened: worst.chunks, overflows: 0 });

    const budget = 64 * 1024; // about two chunks of this session
    const tight = await streamed(server, campaign.id, 'worst-ordered-1', budget);
    expect(tight.stats.peakOpenBytes).toBeGreaterThan(0);
    expect(tight.stats.peakOpenBytes).toBeLessThanOrEqual(budget);
    expect(tight.stats.overflows).toBeGreaterThan(0);
    expect(tight.stats.opened).toBe(worst.chunks);
    expect(tight.events.map(id).sort()).toEqual(reference.map(id).sort()); // every event, once
  });

  it('keeps a real session with late batches exactly sorted, with one or two chunks open at a time', async () => {
    const t0 = Date.UTC(2026, 0, 2);
    const batch = (b: number) => Array.from({ length: 200 }, (_, i) => ({ type: 3, data: { c: b, i }, timestamp: t0 + b * 1000 + i * 5 }));
    await insertSession(server.db, { campaign_id: campaign.id, id: 'late-batches-1', started_at: t0 });
    // Batches 3 and 7 were sent late: stored after the ones that followed them.
    const storedOrder = [0, 1, 2, 4, 5, 3, 6, 8, 9, 7, 10, 11];
    for (const [seq, b] of storedOrder.entries()) await appendChunk(server.db, { campaignId: campaign.id, sessionId: 'late-batches-1', seq, events: batch(b) });
    const { events, stats } = await streamed(server, campaign.id, 'late-batches-1');
    expect(events.map(id)).toEqual((await referenceOrder(server, campaign.id, 'late-batches-1')).map(id));
    expect(events.every((e, i) => i === 0 || e.timestamp >= events[i - 1].timestamp)).toBe(true);
    const chunkBytes = Buffer.byteLength(JSON.stringify(batch(11)));
    expect(stats).toMatchObject({ opened: storedOrder.length, overflows: 0 });
    expect(stats.peakOpenBytes).toBeGreaterThanOrEqual(chunkBytes);
    expect(stats.peakOpenBytes).toBeLessThanOrEqual(2 * chunkBytes);
    expect(MERGE_BUDGET_BYTES).toBeGreaterThanOrEqual(16 * MB);
  });

  // Storing and three times sending a 20 MB session: well past the 30 s default on a busy 2-core machine.
  it(
    'answers three concurrent retrievals of a maximum-size worst-ordered session in full, and answers other calls meanwhile',
    { timeout: 120_000 },
    async () => {
      const stored: StoredSession = await storeWorstSession(server.db, campaign.id, 'worst-maximum-1', MAXIMUM);
      expect(stored.jsonBytes).toBeGreaterThan(20 * MB);
      const idle = process.memoryUsage().rss;
      const sampler = rssSampler();
      let running = 3;
      const url = `${server.url}/api/v1/replay/retrieve/${campaign.id}/worst-maximum-1`;
      const retrievals = [0, 1, 2].map(() =>
        openGet(url, { ...owner.headers, 'accept-encoding': 'gzip' })
          .body()
          .finally(() => running--),
      );
      // Owner-facing calls while the retrievals run: each must be answered, and some before they end.
      const during: { status: number; ms: number; whileRunning: boolean }[] = [];
      while (running > 0) {
        const started = performance.now();
        const me = await fetch(`${server.url}/api/v1/auth/me`, { headers: owner.headers });
        await me.arrayBuffer();
        during.push({ status: me.status, ms: performance.now() - started, whileRunning: running > 0 });
      }
      const answers = await Promise.all(retrievals);
      const peak = sampler.stop();
      console.log(
        `three concurrent retrievals of a ${(stored.jsonBytes / MB).toFixed(1)} MB worst-ordered session: ` +
          `peak RSS ${(peak / MB).toFixed(0)} MB (idle ${(idle / MB).toFixed(0)} MB, +${((peak - idle) / MB).toFixed(0)} MB); ` +
          `GET /api/v1/auth/me answered ${during.length} times meanwhile, slowest ${Math.max(...during.map((d) => d.ms)).toFixed(0)} ms`,
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        const events = (JSON.parse(answer.body.toString('utf8')) as ReplayResponse).events;
        expect(events).toHaveLength(stored.eventCount);
        expect(new Set(events.map(id)).size).toBe(stored.eventCount);
      }
      expect(during.every((d) => d.status === 200)).toBe(true);
      expect(during.some((d) => d.whileRunning)).toBe(true);
    },
  );
});

describe('heavy retrievals at once (HEAVY_REPLAYS=1)', () => {
  let server: TestServer;
  let owner: Owner;
  let campaign: Campaign;
  let stored: StoredSession;
  let rival: Owner;
  let rivalCampaign: Campaign;

  beforeAll(async () => {
    server = await startServer({ HEAVY_REPLAYS: '1' });
    owner = await userSession(server, 'Gate Owner');
    campaign = await createCampaign(server, owner);
    rival = await userSession(server, 'Gate Rival');
    rivalCampaign = await createCampaign(server, rival);
    await storeWorstSession(server.db, rivalCampaign.id, 'rival-heavy-1', { chunks: 8, eventsPerChunk: 50, pad: 10 });
    stored = await storeWorstSession(server.db, campaign.id, 'worst-gated-1', MAXIMUM);
    await storeWorstSession(server.db, campaign.id, 'ordered-light-1', { chunks: 4, eventsPerChunk: 50, pad: 10, inOrder: true });
  });
  afterAll(async () => server?.close());

  const counts = () => server.app.ctx.replayGates.owners.counts;
  const until = (expected: { running: number; waiting: number }) => vi.waitFor(() => expect(counts()).toEqual(expected), { timeout: 20_000, interval: 10 });

  it('runs one, queues one per owner (two in all), turns the next away with 503 and Retry-After (exports too), and frees slots and places of callers who leave', async () => {
    const url = `${server.url}/api/v1/replay/retrieve/${campaign.id}/worst-gated-1`;
    // Plain JSON read by no one: far more than the sockets buffer, so the first retrieval holds its slot.
    const first = openGet(url, owner.headers);
    expect((await first.response).statusCode).toBe(200);
    await until({ running: 1, waiting: 0 });
    const second = openGet(url, { ...owner.headers, 'accept-encoding': 'gzip' });
    await until({ running: 1, waiting: 1 });

    // The owner's share of the queue is full: their next retrieval is turned away…
    const ownThird = await openGet(url, owner.headers).body();
    expect(ownThird.status).toBe(503);
    expect(ownThird.headers['retry-after']).toBe('5');
    expect(JSON.parse(ownThird.body.toString('utf8'))).toEqual({ error: REPLAYS_BUSY });
    // …while another owner still gets a place.
    const third = openGet(`${server.url}/api/v1/replay/retrieve/${rivalCampaign.id}/rival-heavy-1`, rival.headers);
    await until({ running: 1, waiting: 2 });

    const fourth = await openGet(`${server.url}/api/v1/replay/retrieve/${rivalCampaign.id}/rival-heavy-1`, rival.headers).body();
    expect(fourth.status).toBe(503);
    expect(fourth.headers['retry-after']).toBe('5');
    expect(JSON.parse(fourth.body.toString('utf8'))).toEqual({ error: REPLAYS_BUSY });

    // The export takes its turn at the same gate.
    const turnedAway = await openGet(`${server.url}/api/v1/replay/export/${campaign.id}/worst-gated-1`, owner.headers).body();
    expect(turnedAway.status).toBe(503);
    expect(turnedAway.headers['retry-after']).toBe('5');
    expect(JSON.parse(turnedAway.body.toString('utf8'))).toEqual({ error: REPLAYS_BUSY });
    expect(counts()).toEqual({ running: 1, waiting: 2 });

    // A light retrieval (a small session in order) does not queue behind heavy ones.
    const light = await fetch(`${server.url}/api/v1/replay/retrieve/${campaign.id}/ordered-light-1`, { headers: owner.headers });
    expect(light.status).toBe(200);
    expect(((await light.json()) as ReplayResponse).events).toHaveLength(200);

    // A caller who leaves the queue gives its place up; one who leaves mid-answer frees its slot.
    third.request.destroy();
    await until({ running: 1, waiting: 1 });
    first.request.destroy();
    const answer = await second.body();
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body.toString('utf8')) as ReplayResponse).events).toHaveLength(stored.eventCount);
    await until({ running: 0, waiting: 0 });
  });

  it("gives public share links a gate of their own: links held open are bounded and never take the owners' slots", async () => {
    const created = await fetch(`${server.url}/api/v1/replay/share/${campaign.id}/worst-gated-1`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: '1h' }),
    });
    const { token } = (await created.json()) as CreatedShare;
    const shared = `${server.url}/api/v1/shared/${token}`;
    const sharedCounts = () => server.app.ctx.replayGates.shared.counts;
    // One reader holding the link open (read by no one), two waiting: the shared gate is full.
    // Which of the three gets the slot is the server's order, not the order they were sent in.
    const held = [openGet(shared, {}), openGet(shared, {}), openGet(shared, {})];
    const first = await within(Promise.race(held.map((h) => h.response)), 'one shared reader to get its answer');
    expect(first.statusCode).toBe(200);
    await vi.waitFor(() => expect(sharedCounts()).toEqual({ running: 1, waiting: 2 }), { timeout: 8_000, interval: 10 });
    const turnedAway = await within(openGet(shared, {}).body(), 'a fourth shared reader to be turned away');
    expect(turnedAway.status).toBe(503);
    expect(turnedAway.headers['retry-after']).toBe('5');
    expect(JSON.parse(turnedAway.body.toString('utf8'))).toEqual({ error: REPLAYS_BUSY });
    // Meanwhile the owner's heavy replay runs at once.
    expect(counts()).toEqual({ running: 0, waiting: 0 });
    const ownUrl = `${server.url}/api/v1/replay/retrieve/${campaign.id}/worst-gated-1`;
    const own = await within(openGet(ownUrl, { ...owner.headers, 'accept-encoding': 'gzip' }).body(), "the owner's replay to be answered in full");
    expect(own.status).toBe(200);
    for (const request of held) request.request.destroy();
    await vi.waitFor(() => expect(sharedCounts()).toEqual({ running: 0, waiting: 0 }), { timeout: 8_000, interval: 10 });
  });
});
