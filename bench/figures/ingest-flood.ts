// Figure: an owner's call while anonymous senders flood ingest. GET /api/v1/auth/me is timed
// from its own process on an idle server, then while N senders post maximum-size, highly
// compressible batches (each inflates to just under the 16 MB cap: 10,000 events). Ingest packs
// batches in worker threads, so the owner's call should barely notice.
import zlib from 'node:zlib';
import { stats, type BenchOptions, type Row } from '../lib.js';
import { withServer, type BenchServer } from '../support/server.js';
import { createCampaign, createOwner } from '../support/seed.js';
import { LoadGenerator, type LoadResult } from '../support/load.js';
import { info as visitInfo } from '../../tests/integration/ingest-support.js';
import { MAX_EVENTS_PER_BATCH, MAX_INFLATED_BYTES } from '../../common/limits.js';

export const title = 'Ingest flood';

const ORIGIN = 'https://shop.example.com';
const SENDERS = 4;
const BUDGET = 5;

/** A batch that inflates to just under the cap: the most work one small upload can ask for. */
function floodBody(index: number): Uint8Array {
  const now = Date.now();
  const pad = 'x'.repeat(Math.floor((MAX_INFLATED_BYTES * 0.97) / MAX_EVENTS_PER_BATCH) - 80);
  const events = Array.from({ length: MAX_EVENTS_PER_BATCH }, (_, i) => ({
    type: 3,
    data: { source: 0, texts: [{ id: i, value: pad }] },
    timestamp: now - 60_000 + i,
  }));
  const body = JSON.stringify({ sessionId: `flood-${index.toString().padStart(6, '0')}`, seq: 0, info: visitInfo({ url: `${ORIGIN}/` }), events });
  if (body.length > MAX_INFLATED_BYTES) throw new Error('the flood batch is over the inflate cap');
  return zlib.gzipSync(body, { level: 9 });
}

async function probe(load: LoadGenerator, server: BenchServer, cookie: string, seconds: number): Promise<LoadResult> {
  return load.run({
    url: `${server.url}/api/v1/auth/me`,
    origin: server.config.publicUrl,
    connections: 1,
    seconds,
    method: 'GET',
    headers: { cookie },
    bodies: [],
    events: [],
    cycle: true,
  });
}

interface Sample {
  idle: LoadResult;
  flooded: LoadResult;
  flood: LoadResult;
}

interface Owner {
  userId: string;
  cookie: string;
}

async function oneRun(
  prober: LoadGenerator,
  flooder: LoadGenerator,
  server: BenchServer,
  owner: Owner,
  bodies: Uint8Array[],
  seconds: number,
): Promise<Sample> {
  const campaignId = await createCampaign(server.db, owner.userId, 'shop.example.com', 'Flood');
  const cookie = owner.cookie;
  const idle = await probe(prober, server, cookie, seconds);
  const flooding = flooder.run({
    url: `${server.url}/api/v1/ingest/${campaignId}`,
    origin: ORIGIN,
    connections: SENDERS,
    seconds: seconds + 2,
    bodies,
    events: bodies.map(() => MAX_EVENTS_PER_BATCH),
    cycle: true,
  });
  await new Promise((resolve) => setTimeout(resolve, 1000)); // the flood is under way
  const flooded = await probe(prober, server, cookie, seconds);
  return { idle, flooded, flood: await flooding };
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const seconds = options.quick ? 1.5 : 5;
  const bodies = Array.from({ length: 8 }, (_, i) => floodBody(i));
  return withServer({}, async (server) => {
    const owner = await createOwner(server);
    const prober = new LoadGenerator();
    const flooder = new LoadGenerator();
    try {
      const samples: Sample[] = [];
      for (let i = 0; i < options.runs; i++) samples.push(await oneRun(prober, flooder, server, owner, bodies, seconds));
      const of = (pick: (s: Sample) => number) => stats(samples.map(pick));
      const kb = (bodies[0].byteLength / 1024).toFixed(0);
      const flood = `${SENDERS} senders flooding ingest with 16 MB batches (${kb} KB gzip each)`;
      const answered = samples.reduce((n, s) => n + s.flood.acked, 0);
      const statuses = [...new Set(samples.flatMap((s) => Object.keys(s.flood.statuses)))].join('/');
      return [
        {
          group: title,
          name: `p99 latency of GET /api/v1/auth/me while ${flood}`,
          unit: 'ms',
          ours: of((s) => s.flooded.p99),
          baseline: { name: 'the same call, idle server', stats: of((s) => s.idle.p99) },
          budget: BUDGET,
          budgetOn: 'ratio',
          note: `flood batches per second ${of((s) => s.flood.sent / s.flood.seconds).median.toFixed(1)}, ${answered} packed and answered (${statuses})`,
        },
        {
          group: title,
          name: `p50 latency of GET /api/v1/auth/me while ${flood}`,
          unit: 'ms',
          ours: of((s) => s.flooded.p50),
          baseline: { name: 'the same call, idle server', stats: of((s) => s.idle.p50) },
        },
      ];
    } finally {
      prober.close();
      flooder.close();
    }
  });
}
