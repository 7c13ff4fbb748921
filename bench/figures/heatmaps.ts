// Heatmaps: p50/p95 latency of GET /api/v1/heatmaps/{c}?path&device&from&to over 30 days for a
// page with 1,000,000 clicks (desktop), vs the same request for a page with 1,000 clicks in the
// same campaign. SQLite and PostgreSQL. Budget: p95 ≤ 300 ms.
//
// The aggregate tables are seeded as 30 days of such clicks leave them (per day: the page's row,
// 200 elements — the cap —, 3,000 position bins, 11 scroll depths), beside 5 other pages and the
// other device classes; ingest's own cost of aggregating is the ingest figure's.
import { sql } from 'kysely';
import type { Db } from '../../server/db/index.js';
import type { BenchOptions, Row } from '../lib.js';
import { latencies, latencyRows, requestLatencies } from '../support/latency.js';
import { eachDatabase, withServer, type DatabaseKind } from '../support/server.js';
import { createCampaign, createOwner } from '../support/seed.js';
import { decodedBody, timedGet } from '../support/http.js';

export const title = 'Heatmaps';

const DAYS = 30;
const BUDGET_P95_MS = 300;
const START = Date.UTC(2026, 0, 1);
const END = START + DAYS * 86_400_000;
const FIRST_DAY = Math.floor(START / 86_400_000);
const ELEMENTS = 200;
const BINS = 3_000;

/** One page at one device class: `clicks` spread over the days, its elements and its bins (a few hot, a long tail). */
async function seedPage(db: Db, campaignId: string, page: string, device: string, clicks: number): Promise<void> {
  const dayClicks = (day: number) => Math.floor((clicks * (day + 1)) / DAYS) - Math.floor((clicks * day) / DAYS);
  const key = (day: number) => ({ campaign_id: campaignId, page, device, day: FIRST_DAY + day });
  /** `total` split over `n` parts by 1/(i+1), summing to `total` exactly. */
  const spread = (total: number, n: number) => {
    const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
    const sum = weights.reduce((a, b) => a + b, 0);
    const parts = weights.map((w) => Math.floor((total * w) / sum));
    parts[0] += total - parts.reduce((a, b) => a + b, 0);
    return parts;
  };
  await db.transaction().execute(async (trx) => {
    for (let day = 0; day < DAYS; day++) {
      const perDay = dayClicks(day);
      const elementClicks = spread(perDay, ELEMENTS);
      const binClicks = spread(perDay, BINS);
      const layers = (n: number) => ({ clicks: n, rage_clicks: Math.floor(n / 50), dead_clicks: Math.floor(n / 20), error_clicks: Math.floor(n / 100) });
      await trx
        .insertInto('heatmap_pages')
        .values({
          ...key(day),
          views: Math.floor(perDay / 4),
          sessions: Math.floor(perDay / 8),
          ...layers(perDay),
          rage_sessions: 1,
          dead_sessions: 1,
          error_sessions: 1,
          fold_sum: 40 * Math.floor(perDay / 4),
          snapshot_session: 'bench-session-0001',
          snapshot_at: START + day * 86_400_000,
        })
        .execute();
      const elements = elementClicks.map((n, i) => ({
        ...key(day),
        selector: `main>div:nth-of-type(${i + 1})>button`,
        text: `Button ${i}`,
        ...layers(n),
        fx_sum: 500 * n,
        fy_sum: 500 * n,
      }));
      for (let i = 0; i < elements.length; i += 200)
        await trx
          .insertInto('heatmap_elements')
          .values(elements.slice(i, i + 200))
          .execute();
      const bins = binClicks.map((n, i) => ({ ...key(day), bin: (i * 7919) % 10_000, ...layers(n) }));
      for (let i = 0; i < bins.length; i += 500)
        await trx
          .insertInto('heatmap_bins')
          .values(bins.slice(i, i + 500))
          .execute();
      await trx
        .insertInto('heatmap_scroll')
        .values(Array.from({ length: 11 }, (_, i) => ({ ...key(day), depth: i * 10, reached: Math.floor(perDay / 4 / (i + 1)) })))
        .execute();
    }
  });
}

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  const clicks = options.quick ? 100_000 : 1_000_000;
  const requests = options.quick ? 10 : 20;
  return withServer({ database: kind }, async (server) => {
    const owner = await createOwner(server);
    const campaign = await createCampaign(server.db, owner.userId, 'shop.example.com', 'Heat campaign');
    await seedPage(server.db, campaign, '/product/*', 'desktop', clicks);
    await seedPage(server.db, campaign, '/product/*', 'mobile', clicks / 4);
    await seedPage(server.db, campaign, '/product/*', 'tablet', clicks / 10);
    for (let i = 0; i < 5; i++) await seedPage(server.db, campaign, `/page-${i}`, 'desktop', clicks / 10);
    await seedPage(server.db, campaign, '/about', 'desktop', 1_000);
    if (kind === 'PostgreSQL')
      for (const table of ['heatmap_pages', 'heatmap_elements', 'heatmap_bins', 'heatmap_scroll']) await sql`analyze ${sql.table(table)}`.execute(server.db);
    const url = (page: string) => `${server.url}/api/v1/heatmaps/${campaign}?path=${encodeURIComponent(page)}&device=desktop&from=${START}&to=${END}`;
    const check = JSON.parse(decodedBody(await timedGet(url('/product/*'), { cookie: owner.cookie }))) as { clicks?: number; elements?: unknown[] };
    if (check.clicks !== clicks || (check.elements?.length ?? 0) < 100)
      throw new Error(`the heatmap counted ${check.clicks} of ${clicks} clicks, ${check.elements?.length} elements`);
    const ours = await latencies(options.runs, () => requestLatencies(url('/product/*'), owner, requests, 'heatmap'));
    const base = await latencies(options.runs, () => requestLatencies(url('/about'), owner, requests, 'heatmap'));
    const name = `${kind}, a page with ${clicks.toLocaleString('en-US')} clicks over ${DAYS} days`;
    return latencyRows(title, name, ours, 'same request, a page with 1,000 clicks', base, BUDGET_P95_MS);
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachDatabase((kind) => figureFor(kind, options));
}
