// Funnels: p50/p95 latency of GET /api/v1/funnels/{c}/{f}/result over 30 days for a 4-step
// funnel (/ → /products/* → /cart → /checkout) in a campaign of 100,000 sessions, vs the same
// request in a campaign of 100 sessions. SQLite and PostgreSQL. Budget: p95 ≤ 500 ms.
import { sql } from 'kysely';
import type { Db } from '../../server/db/index.js';
import { addFunnel } from '../../server/funnels/repository.js';
import type { BenchOptions, Row } from '../lib.js';
import { DAYS, END, SMALL, START, bigAndSmall, latencies, latencyRows, requestLatencies } from '../support/latency.js';
import { eachDatabase, withServer, type DatabaseKind } from '../support/server.js';
import { insertSessionRows, sessionRowFor } from '../support/seed.js';
import { decodedBody, timedGet } from '../support/http.js';

export const title = 'Funnels';

const BUDGET_P95_MS = 500;
const STEPS = [{ page: '/' }, { page: '/products/*' }, { page: '/cart' }, { page: '/checkout' }];

/** Each session's pages: most enter at /, fewer go on at each step, some wander between. */
const pagesOf = (i: number) =>
  [i % 5 ? '/' : '/about', `/products/${i % 500}`, i % 3 ? '/products/other' : null, i % 2 ? '/cart' : null, i % 4 === 1 ? '/checkout' : null]
    .filter(Boolean)
    .join('\n');

/** `count` sessions over the 30 days; the session_pages trigger records their pages as they are inserted. */
async function seed(db: Db, campaignId: string, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => {
    const started = START + Math.floor((i * (END - START)) / count);
    return { ...sessionRowFor(campaignId, i), started_at: started, last_activity_at: started + 60_000, pages: pagesOf(i) };
  });
  await insertSessionRows(db, rows);
}

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  return withServer({ database: kind }, async (server) => {
    const { owner, big, small, total, requests } = await bigAndSmall(server, options);
    const paths: string[] = [];
    for (const [campaignId, count] of [
      [big, total],
      [small, SMALL],
    ] as const) {
      await seed(server.db, campaignId, count);
      const funnel = await addFunnel(server.db, campaignId, { name: 'Checkout', steps: STEPS, withinMs: 3_600_000 }, 50);
      paths.push(`/api/v1/funnels/${campaignId}/${funnel?.id}/result?from=${START}&to=${END}`);
    }
    if (kind === 'PostgreSQL') await sql`analyze`.execute(server.db);
    const check = JSON.parse(decodedBody(await timedGet(`${server.url}${paths[0]}`, { cookie: owner.cookie }))) as { steps?: { sessions: number }[] };
    if (check.steps?.[0]?.sessions !== total - total / 5) throw new Error(`the funnel counted ${JSON.stringify(check.steps)} of ${total} sessions`);
    const measure = (path: string) => () => requestLatencies(`${server.url}${path}`, owner, requests, 'funnel result');
    const ours = await latencies(options, measure(paths[0]));
    const base = await latencies(options, measure(paths[1]));
    const name = `${kind}, 4 steps, ${total.toLocaleString('en-US')} sessions over ${DAYS} days`;
    return latencyRows(title, name, ours, `same funnel, campaign of ${SMALL} sessions`, base, BUDGET_P95_MS);
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachDatabase((kind) => figureFor(kind, options));
}
