// The request-latency figures' shared loop: `requests` GETs per run, their p50 and p95 as
// medians over the runs (the first run warms up), and the figure's p50/p95 rows.
import { budgetOf, repeat, stats, type BenchOptions, type Row, type Stats } from '../lib.js';
import { createCampaign, createOwner, type Owner } from './seed.js';
import type { BenchServer } from './server.js';
import { decodedBody, percentile, timedGet } from './http.js';

/** The baseline campaign's size: the same request in a campaign of this many sessions. */
export const SMALL = 100;
/** The window the insights and funnel figures ask for: 30 days from 2026-01-01 (UTC). */
export const DAYS = 30;
export const START = Date.UTC(2026, 0, 1);
export const END = START + DAYS * 86_400_000;

/**
 * One owner's two campaigns, the big one measured and the small one its baseline, with how many
 * sessions the big one gets and how many requests make a run (fewer of both with --quick).
 */
export async function bigAndSmall(server: BenchServer, options: BenchOptions) {
  const owner = await createOwner(server);
  const big = await createCampaign(server.db, owner.userId, 'shop.example.com', 'Big campaign');
  const small = await createCampaign(server.db, owner.userId, 'shop.example.com', 'Small campaign');
  return { owner, big, small, total: options.quick ? 5_000 : 100_000, requests: options.quick ? 10 : 20 };
}

/** Each request's time to last byte; any answer but 200 stops the figure, naming `what` answered. */
export async function requestLatencies(url: string, owner: Owner, requests: number, what: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const response = await timedGet(url, { cookie: owner.cookie });
    if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${decodedBody(response).slice(0, 200)}`);
    samples.push(response.lastByteMs);
  }
  return samples;
}

/**
 * p50 and p95 of each run's requests, as medians over the runs. A full run's first run warms up;
 * --quick's runs do without unless told (each request figure asks once, checking the answer,
 * before it measures).
 */
export async function latencies(options: BenchOptions, measure: () => Promise<number[]>, warmup = !options.quick): Promise<{ p50: Stats; p95: Stats }> {
  const p50: number[] = [];
  const p95: number[] = [];
  await repeat(
    options.runs,
    async () => {
      const samples = await measure();
      p50.push(percentile(samples, 50));
      p95.push(percentile(samples, 95));
      return 0;
    },
    warmup,
  );
  const measured = (values: number[]) => stats(warmup ? values.slice(1) : values);
  return { p50: measured(p50), p95: measured(p95) };
}

type Latencies = Awaited<ReturnType<typeof latencies>>;

/**
 * The p50 and p95 rows of one measurement beside its baseline; the budget, if any, is on p95.
 * Given the bench's options, a budget set on the full workload shows as not judged in --quick.
 */
export function latencyRows(
  group: string,
  name: string,
  ours: Latencies,
  baselineName: string,
  base: Latencies,
  budgetP95?: number,
  options?: Pick<BenchOptions, 'quick'>,
): Row[] {
  const budget = budgetP95 === undefined ? {} : options ? budgetOf(options, budgetP95) : { budget: budgetP95 };
  return [
    { group, name: `p50 ${name}`, unit: 'ms', ours: ours.p50, baseline: { name: baselineName, stats: base.p50 } },
    { group, name: `p95 ${name}`, unit: 'ms', ours: ours.p95, baseline: { name: baselineName, stats: base.p95 }, ...budget },
  ];
}
