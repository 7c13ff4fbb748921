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
import { seedHeatmapPage } from '../support/heatmap-seed.js';

export const title = 'Heatmaps';

const DAYS = 30;
const BUDGET_P95_MS = 300;
const START = Date.UTC(2026, 0, 1);
const END = START + DAYS * 86_400_000;
const FIRST_DAY = Math.floor(START / 86_400_000);
const seedPage = (db: Db, campaignId: string, page: string, device: string, clicks: number) =>
  seedHeatmapPage(db, { campaignId, page, device, clicks }, { firstDay: FIRST_DAY, days: DAYS, snapshot: { sessionId: 'bench-session-0001', at: START } });

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  const clicks = options.quick ? 20_000 : 1_000_000;
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
    const ours = await latencies(options, () => requestLatencies(url('/product/*'), owner, requests, 'heatmap'));
    const base = await latencies(options, () => requestLatencies(url('/about'), owner, requests, 'heatmap'));
    const name = `${kind}, a page with ${clicks.toLocaleString('en-US')} clicks over ${DAYS} days`;
    return latencyRows(title, name, ours, 'same request, a page with 1,000 clicks', base, BUDGET_P95_MS);
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachDatabase((kind) => figureFor(kind, options));
}
