// Heavy reads: another owner's GET /api/v1/auth/me while four owners each keep asking for a
// 10-step funnel's result over 2,000 sessions (sessions of the last hours, so no day is kept and
// every result is counted afresh), beside the same call on the idle server. SQLite and
// PostgreSQL. Heavy reads run their queries off the event loop and their JavaScript in slices
// (server/http/heavy-reads.ts), so the owner's call should barely notice. Budget: p95 ≤ 5× idle.
import { sql } from 'kysely';
import { addFunnel } from '../../server/funnels/repository.js';
import { stats, type BenchOptions, type Row } from '../lib.js';
import { eachDatabase, withServer, type BenchServer, type DatabaseKind } from '../support/server.js';
import { createCampaign, createOwner, insertSessionRows, sessionRowFor, type Owner } from '../support/seed.js';
import { percentile, timedGet } from '../support/http.js';

export const title = 'Heavy reads';

const READERS = 4;
const STEPS = 10;
const BUDGET = 5;

/** An owner with a campaign of `count` sessions, each through every step twice, and its funnel's result path. */
async function heavyOwner(server: BenchServer, index: number, count: number): Promise<{ owner: Owner; path: string }> {
  const owner = await createOwner(server, `Heavy ${index}`);
  const campaignId = await createCampaign(server.db, owner.userId, 'shop.example.com');
  const pages = Array.from({ length: STEPS }, (_, k) => `/step-${k + 1}`);
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => {
    const started = now - 3_600_000 - i * 10_000;
    return { ...sessionRowFor(campaignId, i), started_at: started, last_activity_at: started + 600_000, pages: [...pages, ...pages].join('\n') };
  });
  await insertSessionRows(server.db, rows);
  const funnel = await addFunnel(server.db, campaignId, { name: 'Ten steps', steps: pages.map((page) => ({ page })), withinMs: 3_600_000 }, 50);
  return { owner, path: `/api/v1/funnels/${campaignId}/${funnel?.id}/result` };
}

/** The probing owner's call, one after another for `seconds`: each one's time to last byte. */
async function probe(server: BenchServer, owner: Owner, seconds: number): Promise<number[]> {
  const samples: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const response = await timedGet(`${server.url}/api/v1/auth/me`, { cookie: owner.cookie });
    if (response.status !== 200) throw new Error(`/api/v1/auth/me answered ${response.status}`);
    samples.push(response.lastByteMs);
  }
  return samples;
}

interface Sample {
  idle: number[];
  busy: number[];
  statuses: Record<number, number>;
}

async function oneRun(server: BenchServer, prober: Owner, readers: { owner: Owner; path: string }[], seconds: number): Promise<Sample> {
  const idle = await probe(server, prober, seconds);
  const statuses: Record<number, number> = {};
  let reading = true;
  const loops = readers.map(async ({ owner, path }) => {
    while (reading) {
      const { status, headers } = await timedGet(`${server.url}${path}`, { cookie: owner.cookie });
      statuses[status] = (statuses[status] ?? 0) + 1;
      // Turned away (429/503): as the PWA would, ask again after Retry-After.
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, Number(headers['retry-after'] ?? 1) * 1000));
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // the reads are under way
  const busy = await probe(server, prober, seconds);
  reading = false;
  await Promise.all(loops);
  return { idle, busy, statuses };
}

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  const sessions = options.quick ? 500 : 2000;
  const seconds = options.quick ? 1 : 4;
  return withServer({ database: kind }, async (server) => {
    const prober = await createOwner(server, 'Prober');
    const readers = [];
    for (let i = 0; i < READERS; i++) readers.push(await heavyOwner(server, i, sessions));
    if (kind === 'PostgreSQL') await sql`analyze`.execute(server.db);
    const samples: Sample[] = [];
    // A full run's first run warms up; --quick's counts.
    const warmups = options.quick ? 0 : 1;
    for (let i = 0; i < options.runs + warmups; i++) samples.push(await oneRun(server, prober, readers, seconds));
    const measured = samples.slice(warmups);
    const of = (pick: (s: Sample) => number[], p: number) => stats(measured.map((s) => percentile(pick(s), p)));
    const answered = Object.entries(
      measured.reduce<Record<string, number>>((all, s) => {
        for (const [status, n] of Object.entries(s.statuses)) all[status] = (all[status] ?? 0) + n;
        return all;
      }, {}),
    )
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ');
    const load = `${READERS} owners each asking again and again for a ${STEPS}-step funnel's result over ${sessions.toLocaleString('en-US')} sessions (${kind})`;
    const baseline = 'the same call, idle server';
    return [
      {
        group: title,
        name: `p95 latency of another owner's GET /api/v1/auth/me while ${load}`,
        unit: 'ms',
        ours: of((s) => s.busy, 95),
        baseline: { name: baseline, stats: of((s) => s.idle, 95) },
        budget: BUDGET,
        budgetOn: 'ratio',
        note: `results answered: ${answered}`,
      },
      {
        group: title,
        name: `p50 latency of another owner's GET /api/v1/auth/me while ${load}`,
        unit: 'ms',
        ours: of((s) => s.busy, 50),
        baseline: { name: baseline, stats: of((s) => s.idle, 50) },
      },
    ];
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachDatabase((kind) => figureFor(kind, options));
}
