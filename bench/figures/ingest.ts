// Figure 3: batches/s and events/s sustained against the real ingest endpoint with realistic gzip
// batches from many sessions, vs a no-op route on the same server; p50/p99 latency; zero loss
// (events stored = events acknowledged). SQLite and PostgreSQL.
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { stats, type BenchOptions, type Row } from '../lib.js';
import { eachDatabase, withServer, type BenchServer, type DatabaseKind } from '../support/server.js';
import { createCampaign, createOwner } from '../support/seed.js';
import { batchesOf, demoEvents } from '../support/recording.js';
import { LoadGenerator, type LoadResult } from '../support/load.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { info as visitInfo } from '../../tests/integration/ingest-support.js';
import { MAX_BODY_BYTES } from '../../common/limits.js';

export const title = 'Ingest';

const NOOP_PATH = '/bench/noop/:campaignId';
export const ORIGIN = 'https://shop.example.com';
export const CONNECTIONS = 10;

/** The visit's details, as the tests' ingest batches carry them, from the bench's shop. */
const info = visitInfo({ url: `${ORIGIN}/` });

/** The baseline route: reads the same body the same way (raw bytes, same cap), stores nothing. */
function registerNoop(app: FastifyInstance): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
    scope.post(NOOP_PATH, { bodyLimit: MAX_BODY_BYTES }, async () => ({ stored: true }));
  });
}

/**
 * The tracker's heatmap records as it sends them beside rrweb's events (tracker/src/heat.ts): a
 * page view at each page load, a click record with each click; ingest aggregates them.
 */
function withHeat(events: ReplayEvent[]): ReplayEvent[] {
  const heat: ReplayEvent[] = [];
  for (const event of events) {
    const data = event.data as { source?: number; type?: number; x?: number; y?: number; width?: number; href?: string };
    if (event.type === 4)
      heat.push({
        type: 5,
        data: { tag: 'tapedeck/scroll', payload: { p: '/', d: 60, w: data.width ?? 1280, h: 2000, v: 1 } },
        timestamp: event.timestamp + 1,
      } as ReplayEvent);
    if (event.type === 3 && data.source === 2 && data.type === 2) {
      const payload = {
        p: '/',
        s: `main>button:nth-of-type(${Math.round(data.x ?? 0) % 5})`,
        t: 'Add to cart',
        fx: 0.5,
        fy: 0.5,
        x: Math.round(data.x ?? 0),
        y: Math.round(data.y ?? 0),
        w: 1280,
        h: 2000,
      };
      heat.push({ type: 5, data: { tag: 'tapedeck/click', payload }, timestamp: event.timestamp + 1 } as ReplayEvent);
    }
  }
  return [...events, ...heat].sort((a, b) => a.timestamp - b.timestamp);
}

export interface Prepared {
  bodies: Uint8Array[];
  events: number[];
}

/**
 * Every session is the demo recording cut into the tracker's batches; the first carries the
 * session info. Sessions are interleaved (batch 0 of every session, then batch 1, …) so, with
 * many more sessions than connections, each session's batches arrive in order, as one tab sends them.
 */
export function prepare(recorded: ReplayEvent[], sessions: number, tag: string): Prepared {
  const demo = withHeat(recorded);
  // Recorded just now, one session a second: ingest takes times within a day of its clock.
  const end = Date.now() - sessions * 1000;
  const perSession = Array.from({ length: sessions }, (_, i) => {
    const shift = end - demo[demo.length - 1].timestamp + i * 1000;
    return batchesOf(demo.map((e) => ({ ...e, timestamp: e.timestamp + shift })));
  });
  const prepared: Prepared = { bodies: [], events: [] };
  const rounds = Math.max(...perSession.map((b) => b.length));
  for (let seq = 0; seq < rounds; seq++) {
    for (let i = 0; i < sessions; i++) {
      const events = perSession[i][seq];
      if (!events) continue;
      const sessionId = `bench-${tag}-${i.toString().padStart(6, '0')}`;
      const body = JSON.stringify({ sessionId, seq, ...(seq === 0 ? { info } : {}), events });
      prepared.bodies.push(zlib.gzipSync(body));
      prepared.events.push(events.length);
    }
  }
  return prepared;
}

/** `sessions` demo sessions sent once, as fast as the load generator goes, to `baseUrl`'s ingest for the campaign. */
export function ingestOnce(load: LoadGenerator, baseUrl: string, campaignId: string, sessions: number, tag: string): Promise<LoadResult> {
  const prepared = prepare(demoEvents(), sessions, tag);
  return load.run({
    origin: ORIGIN,
    connections: CONNECTIONS,
    bodies: prepared.bodies,
    events: prepared.events,
    url: `${baseUrl}/api/v1/ingest/${campaignId}`,
    amount: prepared.bodies.length,
    cycle: false,
  });
}

export async function storedEvents(server: Pick<BenchServer, 'db'>, campaignId: string): Promise<number> {
  const row = await server.db
    .selectFrom('chunks')
    .select((eb) => eb.fn.sum<number | string | null>('event_count').as('events'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirstOrThrow();
  return Number(row.events ?? 0);
}

interface Sample {
  ingest: LoadResult;
  noop: LoadResult;
  lost: number;
}

async function oneRun(load: LoadGenerator, server: BenchServer, ownerId: string, demo: ReplayEvent[], sessions: number, tag: string): Promise<Sample> {
  const campaignId = await createCampaign(server.db, ownerId, 'shop.example.com', `Ingest ${tag}`);
  const prepared = prepare(demo, sessions, tag);
  const job = { origin: ORIGIN, connections: CONNECTIONS, bodies: prepared.bodies, events: prepared.events };
  const ingest = await load.run({ ...job, url: `${server.url}/api/v1/ingest/${campaignId}`, amount: prepared.bodies.length, cycle: false });
  const noop = await load.run({ ...job, url: `${server.url}${NOOP_PATH.replace(':campaignId', campaignId)}`, amount: prepared.bodies.length * 4, cycle: true });
  const lost = ingest.ackedEvents - (await storedEvents(server, campaignId));
  return { ingest, noop, lost };
}

interface Setup {
  load: LoadGenerator;
  server: BenchServer;
  ownerId: string;
  demo: ReplayEvent[];
  sessions: number;
  kind: DatabaseKind;
}

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  const demo = demoEvents();
  const sessions = options.quick ? 20 : 400;
  return withServer({ database: kind, beforeListen: registerNoop }, async (server) => {
    const owner = await createOwner(server);
    const load = new LoadGenerator();
    try {
      return await measure({ load, server, ownerId: owner.userId, demo, sessions, kind }, options);
    } finally {
      load.close();
    }
  });
}

async function measure(setup: Setup, options: BenchOptions): Promise<Row[]> {
  const { load, server, ownerId, demo, sessions, kind } = setup;
  // A full run warms the server up first (its worker threads, statements); --quick measures without.
  if (!options.quick) await oneRun(load, server, ownerId, demo, Math.min(20, sessions), 'warmup');
  const samples: Sample[] = [];
  for (let run = 0; run < options.runs; run++) samples.push(await oneRun(load, server, ownerId, demo, sessions, `r${run}`));
  const failed = samples.reduce((sum, s) => sum + s.ingest.non2xx + s.ingest.errors + s.ingest.timeouts, 0);
  const statuses = [...new Set(samples.flatMap((s) => Object.keys(s.ingest.statuses)))].join('/');
  const of = (pick: (s: Sample) => number) => stats(samples.map(pick));
  const perSecond = (r: LoadResult, n: number) => n / r.seconds;
  const label = `${kind}, ${sessions} sessions, ${samples[0].ingest.sent.toLocaleString('en-US')} gzip batches, ${CONNECTIONS} connections`;
  const noop = 'no-op route, same server and bodies';
  const row = (name: string, unit: string, pick: (r: LoadResult) => number): Row => ({
    group: title,
    name,
    unit,
    ours: of((s) => pick(s.ingest)),
    baseline: { name: noop, stats: of((s) => pick(s.noop)) },
  });
  return [
    row(`batches/s (${label})`, '1/s', (r) => perSecond(r, r.acked)),
    row(`events/s (${kind})`, '1/s', (r) => perSecond(r, r.ackedEvents)),
    row(`p50 latency (${kind})`, 'ms', (r) => r.p50),
    row(`p99 latency (${kind})`, 'ms', (r) => r.p99),
    {
      group: title,
      name: `events lost: acknowledged − stored (${kind})`,
      unit: 'events',
      ours: of((s) => s.lost),
      budget: 0,
      note: failed ? `${failed} batches not acknowledged (answers ${statuses})` : 'every batch acknowledged',
    },
  ];
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachDatabase((kind) => figureFor(kind, options));
}
