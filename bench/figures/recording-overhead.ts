// Figure 2: main-thread busy time (CDP Performance.getMetrics TaskDuration) and JS heap in Chromium
// for (a) a DOM-mutation workload, (b) an input workload, (c) the first full snapshot of a
// 10,000-element page — with no recorder, with plain @rrweb/record (defaults, emitting to an
// array) and with our tracker sending to a real server. Budget: ours adds no more than plain rrweb.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { budgetOf, stats, type BenchOptions, type Row } from '../lib.js';
import { withServer } from '../support/server.js';
import { createCampaign, createOwner } from '../support/seed.js';
import { withBrowser } from '../support/browser.js';
import { serveSite } from '../support/static-site.js';
import { measureOnce, type Environment, type Variant, type Workload } from '../support/overhead/measure.js';
import { workloads } from '../support/overhead/workloads.js';

export const title = 'Recording overhead';

const root = path.resolve(import.meta.dirname, '..', '..');
/** The reference variant (rrweb + JSON) is left out of --quick, which has time for what is judged. */
const variantsFor = (quick: boolean): Variant[] => (quick ? ['none', 'rrweb', 'ours'] : ['none', 'rrweb', 'rrwebJson', 'ours']);
/** Runs per variant in a full run: more than the minimum of 5, as the budget sits close to the noise. */
const FULL_RUNS = 7;
/** --quick: one round of its three variants, a smoke pass of figures it does not judge. */
const QUICK_RUNS = 1;
const rrwebName = 'plain @rrweb/record';
const rrwebJsonName = 'plain @rrweb/record + JSON.stringify of each event';

interface Samples {
  task: Record<Variant, number[]>;
  heap: Record<Variant, number[]>;
}

/** Runs every variant once per round, in a rotating order, so drift on a noisy machine spreads evenly. */
async function sample(browser: Browser, environment: Environment, workload: Workload, runs: number, quick: boolean): Promise<Samples> {
  const samples: Samples = { task: { none: [], rrweb: [], rrwebJson: [], ours: [] }, heap: { none: [], rrweb: [], rrwebJson: [], ours: [] } };
  if (!quick) await measureOnce(browser, environment, workload, 'none'); // warm-up: the browser's first pages are slow
  const variants = variantsFor(quick);
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + round) % variants.length];
      const result = await measureOnce(browser, environment, workload, variant);
      samples.task[variant].push(result.taskMs);
      samples.heap[variant].push(result.heapBytes / 2 ** 20);
    }
  }
  return samples;
}

const fmtMs = (ms: number) => `${ms >= 0 ? '+' : ''}${Math.round(ms)} ms`;

function rowsFor(workload: Workload, s: Samples, quick: boolean): Row[] {
  const group = title;
  const none = { name: 'no recorder', stats: stats(s.task.none) };
  // Added time against the median without a recorder: a per-run difference would add both runs' noise.
  const added = (variant: Variant) => stats(s.task[variant].map((t) => t - none.stats.median));
  const percent = (variant: Variant) => {
    const change = Math.round((stats(s.task[variant]).median / none.stats.median - 1) * 100);
    return `${change >= 0 ? '+' : ''}${change}%`;
  };
  return [
    { group, name: `${workload.label}: main-thread time, ours`, unit: 'ms', ours: stats(s.task.ours), baseline: none, note: percent('ours') },
    { group, name: `${workload.label}: main-thread time, ${rrwebName}`, unit: 'ms', ours: stats(s.task.rrweb), baseline: none, note: percent('rrweb') },
    {
      // "Ours adds no more than plain rrweb does" is ours' total against rrweb's on the same work,
      // with 5% allowed for timing noise (two equal costs measure up to a few percent apart here).
      group,
      name: `${workload.label}: main-thread time, ours vs ${rrwebName}`,
      unit: 'ms',
      ours: stats(s.task.ours),
      // The budget is set on the workloads; --quick's smaller ones are shown, not judged
      // (their few milliseconds of difference sit inside the machine's noise).
      baseline: { name: rrwebName, stats: stats(s.task.rrweb) },
      ...budgetOf({ quick }, 1.05, 'ratio'),
      note: `added over no recorder: ours ${fmtMs(added('ours').median)}, rrweb ${fmtMs(added('rrweb').median)}`,
    },
    ...(quick
      ? []
      : [
          {
            // Reference, no budget: what getting the events off the page costs at the least.
            group,
            name: `${workload.label}: main-thread time, ours vs ${rrwebJsonName}`,
            unit: 'ms',
            ours: stats(s.task.ours),
            baseline: { name: rrwebJsonName, stats: stats(s.task.rrwebJson) },
            note: `added over no recorder: rrweb + JSON ${fmtMs(added('rrwebJson').median)}`,
          },
        ]),
    {
      group,
      name: `${workload.label}: JS heap used after the workload (after GC), ours`,
      unit: 'MB',
      ours: stats(s.heap.ours),
      baseline: { name: `${rrwebName} (events kept in an array)`, stats: stats(s.heap.rrweb) },
      note: `no recorder: ${stats(s.heap.none).median.toFixed(2)} MB`,
    },
  ];
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const html = fs.readFileSync(path.join(import.meta.dirname, '..', 'pages', 'workload.html'), 'utf8');
  const rrwebSource = fs.readFileSync(path.join(root, 'node_modules/@rrweb/record/dist/record.umd.min.cjs'), 'utf8');
  if (!fs.existsSync(path.join(root, 'dist/tracker/recorder.js'))) throw new Error('dist/tracker is missing: the tracker is not built');
  const site = await serveSite(html);
  try {
    return await withServer({}, async (server) => {
      const owner = await createOwner(server);
      const campaignId = await createCampaign(server.db, owner.userId, '127.0.0.1', 'Recording overhead');
      const environment: Environment = { siteUrl: site.url, loaderUrl: `${server.url}/t/${campaignId}.js`, rrwebSource };
      return withBrowser(async (browser) => {
        const rows: Row[] = [];
        for (const workload of workloads(options.quick)) {
          const runs = options.quick ? QUICK_RUNS : Math.max(options.runs, workload.fullRuns ?? FULL_RUNS);
          rows.push(...rowsFor(workload, await sample(browser, environment, workload, runs, options.quick), options.quick));
        }
        return rows;
      });
    });
  } finally {
    await site.close();
  }
}
