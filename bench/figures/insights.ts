// Insights: p50/p95 latency of GET /api/v1/insights/{c}?from&to over 30 days in a campaign of
// 100,000 sessions (all within those 30 days), vs the same request in a campaign of 100 sessions.
// SQLite and PostgreSQL. Budget: p95 ≤ 100 ms.
import { sql } from 'kysely';
import type { Db } from '../../server/db/index.js';
import { eachPart, repeat, stats, type BenchOptions, type Row, type Stats } from '../lib.js';
import { withServer, type BenchServer, type DatabaseKind } from '../support/server.js';
import { createCampaign, createOwner, sessionRowFor, type Owner } from '../support/seed.js';
import { decodedBody, percentile, timedGet } from '../support/http.js';

export const title = 'Insights';

const SMALL = 100;
const DAYS = 30;
const BUDGET_P95_MS = 100;
const START = Date.UTC(2026, 0, 1);
const END = START + DAYS * 86_400_000;

const countries = [['DE', 'Germany'], ['US', 'United States'], ['FR', 'France'], ['BR', 'Brazil'], ['JP', 'Japan'], ['NL', 'Netherlands']];
const devices = ['desktop', 'desktop', 'mobile', 'tablet'];
const browsers = ['chrome', 'chrome', 'firefox', 'safari', 'edge'];
const referrers = [null, 'https://www.google.com/', 'https://news.example.org/', 'https://t.co/'];

/** `count` sessions spread evenly over the 30 days, with a spread of countries, devices, browsers and referrers. */
async function seed(db: Db, campaignId: string, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => {
    const [code, country] = countries[i % countries.length];
    return {
      ...sessionRowFor(campaignId, i),
      started_at: START + Math.floor((i * (END - START)) / count),
      country_code: code,
      country,
      device: devices[i % devices.length],
      browser_name: browsers[i % browsers.length],
      referrer: referrers[i % referrers.length],
      screen_width: i % 3 ? 1920 : 390,
      screen_height: i % 3 ? 1080 : 844,
      pages: `/products/${i % 500}\n/products/${(i * 7) % 500}\n/cart${i % 4 ? '\n/checkout' : ''}`,
      exit_url: i % 4 ? '/checkout' : '/cart',
    };
  });
  for (let i = 0; i < rows.length; i += 10_000) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(rows.length, i + 10_000); j += 500) await trx.insertInto('sessions').values(rows.slice(j, j + 500)).execute();
    });
  }
}

async function latency(server: BenchServer, owner: Owner, campaignId: string, requests: number): Promise<number[]> {
  const url = `${server.url}/api/v1/insights/${campaignId}?from=${START}&to=${END}`;
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const response = await timedGet(url, { cookie: owner.cookie });
    if (response.status !== 200) throw new Error(`insights answered ${response.status}: ${decodedBody(response).slice(0, 200)}`);
    samples.push(response.lastByteMs);
  }
  return samples;
}

/** p50 and p95 of each run's requests, as medians over the runs (the first run warms up). */
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
    await seed(server.db, big, total);
    await seed(server.db, small, SMALL);
    if (kind === 'PostgreSQL') await sql`analyze sessions`.execute(server.db);
    const check = JSON.parse(decodedBody(await timedGet(`${server.url}/api/v1/insights/${big}?from=${START}&to=${END}`, { cookie: owner.cookie }))) as { totals?: { sessions: number } };
    if (check.totals?.sessions !== total) throw new Error(`insights counted ${check.totals?.sessions} of ${total} sessions`);
    const ours = await latencies(options.runs, () => latency(server, owner, big, requests));
    const base = await latencies(options.runs, () => latency(server, owner, small, requests));
    const name = `${kind}, ${total.toLocaleString('en-US')} sessions over ${DAYS} days`;
    const baseline = (s: Stats) => ({ name: `same request, campaign of ${SMALL} sessions`, stats: s });
    return [
      { group: title, name: `p50 ${name}`, unit: 'ms', ours: ours.p50, baseline: baseline(base.p50) },
      { group: title, name: `p95 ${name}`, unit: 'ms', ours: ours.p95, baseline: baseline(base.p95), budget: BUDGET_P95_MS },
    ];
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachPart<DatabaseKind>(['SQLite', 'PostgreSQL'], (kind) => figureFor(kind, options), (kind) => kind);
}
