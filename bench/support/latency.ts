// The request-latency figures' shared loop: `requests` GETs per run, their p50 and p95 as
// medians over the runs (the first run warms up), and the figure's p50/p95 rows.
import { repeat, stats, type Row, type Stats } from '../lib.js';
import type { Owner } from './seed.js';
import { decodedBody, percentile, timedGet } from './http.js';

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

/** p50 and p95 of each run's requests, as medians over the runs (the first run warms up). */
export async function latencies(runs: number, measure: () => Promise<number[]>): Promise<{ p50: Stats; p95: Stats }> {
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

type Latencies = Awaited<ReturnType<typeof latencies>>;

/** The p50 and p95 rows of one measurement beside its baseline; the budget, if any, is on p95. */
export function latencyRows(group: string, name: string, ours: Latencies, baselineName: string, base: Latencies, budgetP95?: number): Row[] {
  const budget = budgetP95 === undefined ? {} : { budget: budgetP95 };
  return [
    { group, name: `p50 ${name}`, unit: 'ms', ours: ours.p50, baseline: { name: baselineName, stats: base.p50 } },
    { group, name: `p95 ${name}`, unit: 'ms', ours: ours.p95, baseline: { name: baselineName, stats: base.p95 }, ...budget },
  ];
}
