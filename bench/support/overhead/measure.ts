// One measurement of figure 2: a fresh page of the workload site, a recorder variant, the
// workload, and the main-thread time (CDP TaskDuration) and JS heap it cost.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { newContext } from '../browser.js';

/**
 * none: no recorder; rrweb: plain @rrweb/record defaults into an array (the baseline);
 * rrwebJson: the same with each event JSON-serialised, the least a recorder that sends its events
 * must do on the page; ours: our tracker from its one-line install, sending to a real server.
 */
export type Variant = 'none' | 'rrweb' | 'rrwebJson' | 'ours';

export interface Environment {
  siteUrl: string;
  /** Our one-line install: <script async src="…/t/{campaignId}.js">. */
  loaderUrl: string;
  /** @rrweb/record's UMD build, injected as an inline script. */
  rrwebSource: string;
}

export interface Workload {
  label: string;
  /** Whether the recorder starts before the measured window (a, b) or inside it (c: its first snapshot). */
  recorderInWindow: boolean;
  /** Runs per variant in a full run, where the default is too few for a steady median. */
  fullRuns?: number;
  run(page: Page, cdp: CDPSession): Promise<void>;
}

export interface Measurement {
  taskMs: number;
  heapBytes: number;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

async function startRecorder(page: Page, variant: Variant, environment: Environment): Promise<void> {
  if (variant === 'rrweb' || variant === 'rrwebJson') {
    await page.addScriptTag({ content: environment.rrwebSource });
    const keep = variant === 'rrweb' ? 'event' : 'JSON.stringify(event)';
    await page.evaluate(`window.__events = []; window.rrwebRecord.record({ emit: function (event) { window.__events.push(${keep}); } });`);
  } else if (variant === 'ours') {
    await page.evaluate(
      `(function () { var s = document.createElement('script'); s.async = true; s.src = ${JSON.stringify(environment.loaderUrl)}; document.head.appendChild(s); })()`,
    );
    // Polled on a timer: the default polls every animation frame, and the frames it forces
    // (style, layout, paint of the whole page) would be charged to our tracker.
    await page.waitForFunction('window.tapedeck && typeof window.tapedeck.flush === "function"', undefined, { timeout: 15_000, polling: 50 });
  }
}

/** Our tracker's batches leaving the page: counted so a window ends only once they are delivered. */
function watchIngest(page: Page) {
  const state = { inFlight: 0, refused: [] as number[] };
  const isIngest = (url: string, method: string) => method === 'POST' && url.includes('/api/v1/ingest/');
  page.on('request', (r) => isIngest(r.url(), r.method()) && state.inFlight++);
  page.on('requestfailed', (r) => isIngest(r.url(), r.method()) && state.inFlight--);
  // 'response' (headers in), not 'requestfinished': the tracker never reads the answer's body.
  page.on('response', (r) => {
    if (!isIngest(r.url(), r.request().method())) return;
    state.inFlight--;
    if (r.status() < 200 || r.status() >= 300) state.refused.push(r.status());
  });
  return state;
}

/** How long a page must be quiet (no ingest request in flight) before a window closes. */
const SETTLE_MS = 100;

/** Ours sends what it holds (as its 5-second timer would) and the window waits for delivery. */
async function settle(page: Page, variant: Variant, ingest: ReturnType<typeof watchIngest>): Promise<void> {
  if (variant === 'ours') {
    await page.evaluate('window.tapedeck.flush()');
    const deadline = Date.now() + 20_000;
    let quietSince = Date.now();
    while (Date.now() - quietSince < SETTLE_MS) {
      if (Date.now() > deadline) throw new Error('our tracker did not deliver its batches within 20 s');
      if (ingest.inFlight > 0) quietSince = Date.now();
      await page.waitForTimeout(25);
    }
    if (ingest.refused.length) throw new Error(`ingest refused our tracker's batches: HTTP ${ingest.refused.join(', ')}`);
  } else {
    await page.waitForTimeout(SETTLE_MS);
  }
}

export async function measureOnce(browser: Browser, environment: Environment, workload: Workload, variant: Variant): Promise<Measurement> {
  // A fresh context each time: no warm code cache, a new tab session for our tracker.
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    const ingest = watchIngest(page);
    await page.goto(environment.siteUrl, { waitUntil: 'load' });
    const cdp = await context.newCDPSession(page);
    // Thread time, not wall time: tasks descheduled on a busy 2-core machine do not count as busy.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    if (!workload.recorderInWindow && variant !== 'none') {
      await startRecorder(page, variant, environment);
      await settle(page, variant, ingest);
    }
    await cdp.send('HeapProfiler.collectGarbage');
    const before = await metrics(cdp);
    await workload.run(page, cdp);
    if (workload.recorderInWindow) await startRecorder(page, variant, environment);
    await settle(page, variant, ingest);
    const after = await metrics(cdp);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await metrics(cdp)).JSHeapUsedSize;
    return { taskMs: (after.TaskDuration - before.TaskDuration) * 1000, heapBytes: heap - before.JSHeapUsedSize };
  } finally {
    await context.close();
  }
}
