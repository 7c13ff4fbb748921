// Figure 7: p50/p95 latency of one page of GET /api/v1/streaming/sessions/{c}/ (with and without
// search, and with the people filters user and event) in a campaign of 100,000 sessions, vs the
// same request in a campaign of 100 sessions.
// SQLite and PostgreSQL.
import { sql } from 'kysely';
import { eachPart, repeat, stats, type BenchOptions, type Row, type Stats } from '../lib.js';
import { withServer, type BenchServer, type DatabaseKind } from '../support/server.js';
import { createCampaign, createOwner, insertSessions, type Owner } from '../support/seed.js';
import { decodedBody, percentile, timedGet } from '../support/http.js';

export const title = 'Sessions list';

const SMALL = 100;

interface Query {
  label: string;
  params: (rows: { id: string; user_id?: string | null }[]) => string;
}

const queries: Query[] = [
  { label: 'first page, no search', params: () => '' },
  // Matches one visitor in eight: the page fills after a short walk down the index.
  { label: 'first page, search "de-de" (1 in 8 match)', params: () => '?search=de-de' },
  // Matches a single session: the whole campaign is scanned.
  { label: 'first page, search one session id', params: (rows) => `?search=${rows[Math.floor(rows.length / 3)].id.slice(0, 12)}` },
  // People (migration 0019): one person's sessions, by the (campaign_id, user_id, started_at) index.
  { label: 'first page, user filter (one person)', params: (rows) => `?user=${rows.find((row) => row.user_id)?.user_id ?? 'nobody'}` },
  // Events by session_events: a common one (1 in 50), and a rare one (1 in 5,000).
  { label: 'first page, event filter (1 in 50 sent it)', params: () => '?event=checkout' },
  { label: 'first page, event filter (1 in 5,000 sent it)', params: () => '?event=refund' },
];

async function pageLatency(server: BenchServer, owner: Owner, campaignId: string, params: string, requests: number): Promise<number[]> {
  const url = `${server.url}/api/v1/streaming/sessions/${campaignId}/${params}`;
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const response = await timedGet(url, { cookie: owner.cookie });
    if (response.status !== 200) throw new Error(`sessions list answered ${response.status}: ${decodedBody(response).slice(0, 200)}`);
    samples.push(response.lastByteMs);
  }
  return samples;
}

/** p50 and p95 of each run's requests, as medians over the runs. */
async function latencies(runs: number, measure: () => Promise<number[]>): Promise<{ p50: Stats; p95: Stats }> {
  const p50: number[] = [];
  const p95: number[] = [];
  await repeat(runs, async () => {
    const samples = await measure();
    p50.push(percentile(samples, 50));
    p95.push(percentile(samples, 95));
    return 0;
  });
  return { p50: stats(p50.slice(1)), p95: stats(p95.slice(1)) };
}

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  const total = options.quick ? 10_000 : 100_000;
  const requests = options.quick ? 10 : 20;
  return withServer({ database: kind }, async (server) => {
    const owner = await createOwner(server);
    const big = await createCampaign(server.db, owner.userId, 'shop.example.com', 'Big campaign');
    const small = await createCampaign(server.db, owner.userId, 'shop.example.com', 'Small campaign');
    const bigRows = await insertSessions(server.db, big, total);
    const smallRows = await insertSessions(server.db, small, SMALL);
    // A live PostgreSQL has planner statistics (autovacuum analyses); a bulk-loaded one not yet.
    if (kind === 'PostgreSQL') await sql`analyze sessions, session_events`.execute(server.db);
    const check = JSON.parse(decodedBody(await timedGet(`${server.url}/api/v1/streaming/sessions/${big}/`, { cookie: owner.cookie }))) as { counts?: { total: number } };
    if (check.counts?.total !== undefined && check.counts.total !== total) throw new Error(`listed ${check.counts.total} of ${total} sessions`);
    const rows: Row[] = [];
    for (const query of queries) {
      const ours = await latencies(options.runs, () => pageLatency(server, owner, big, query.params(bigRows), requests));
      const base = await latencies(options.runs, () => pageLatency(server, owner, small, query.params(smallRows), requests));
      const name = `${kind}, ${total.toLocaleString('en-US')} sessions, ${query.label}`;
      const baseName = `same request, campaign of ${SMALL} sessions`;
      rows.push(
        { group: title, name: `p50 ${name}`, unit: 'ms', ours: ours.p50, baseline: { name: baseName, stats: base.p50 } },
        { group: title, name: `p95 ${name}`, unit: 'ms', ours: ours.p95, baseline: { name: baseName, stats: base.p95 } },
      );
    }
    return rows;
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachPart<DatabaseKind>(['SQLite', 'PostgreSQL'], (kind) => figureFor(kind, options), (kind) => kind);
}
