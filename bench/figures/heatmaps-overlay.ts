// Heatmaps on screen: in Chromium, from the heatmap's answer arriving (its resource timing's
// responseEnd) to the overlay canvas drawn (the screen's "heatmap-drawn" performance mark), for a
// page with 1,000,000 clicks over 30 days — its 200 elements and 3,000 position bins — vs the same
// screen for a page with 100 clicks. Between the two lie the snapshot session's replay fetched and
// rebuilt, and the heat drawn. Budget: p95 ≤ 1 s. SQLite (the answer's own latency is the heatmaps figure's).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { BenchOptions, Row } from '../lib.js';
import { latencies, latencyRows } from '../support/latency.js';
import { withServer, type BenchServer } from '../support/server.js';
import { createCampaign, createOwner, storeSession, type Owner } from '../support/seed.js';
import { demoEvents } from '../support/recording.js';
import { newContext, withBrowser } from '../support/browser.js';
import { seedHeatmapPage } from '../support/heatmap-seed.js';

export const title = 'Heatmap overlay';

const DAYS = 30;
const BUDGET_P95_MS = 1_000;
const TIMEOUT = 60_000;

/** In the page: ms from the heatmap's answer to the overlay drawn after it, or false while not drawn. */
function drawnAfterAnswer(campaignId: string): number | false {
  const answer = performance
    .getEntriesByType('resource')
    .filter((e) => e.name.includes(`/api/v1/heatmaps/${campaignId}?`))
    .pop() as PerformanceResourceTiming | undefined;
  if (!answer) return false;
  const drawn = performance.getEntriesByName('heatmap-drawn').find((mark) => mark.startTime >= answer.responseEnd);
  return drawn ? drawn.startTime - answer.responseEnd : false;
}

/** A returning owner's browser: the app installed, its service worker in control. */
async function installedApp(browser: Browser, server: BenchServer, owner: Owner): Promise<BrowserContext> {
  const context = await newContext(browser, { owner, origin: server.url, viewport: { width: 1400, height: 900 } });
  const first = await context.newPage();
  await first.goto(`${server.url}/dashboard`, { waitUntil: 'load', timeout: TIMEOUT });
  await first
    .waitForFunction('navigator.serviceWorker && navigator.serviceWorker.ready.then(function () { return true; })', undefined, { timeout: 20_000 })
    .catch(() => undefined);
  await first.close();
  return context;
}

/** One run: the owner opens the screen `opens` times, each in a new tab. */
async function openings(context: BrowserContext, url: string, campaignId: string, opens: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < opens; i++) {
    const page: Page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT });
    const handle = await page.waitForFunction(drawnAfterAnswer, campaignId, { polling: 'raf', timeout: TIMEOUT });
    samples.push((await handle.jsonValue()) as number);
    await page.close();
  }
  return samples;
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const clicks = options.quick ? 20_000 : 1_000_000;
  const opens = options.quick ? 2 : 10;
  return withServer({}, async (server) => {
    const owner = await createOwner(server);
    const campaignId = await createCampaign(server.db, owner.userId, '127.0.0.1');
    // The page is rebuilt from a real recording, at a moment within it.
    const events = demoEvents();
    const sessionId = await storeSession(server.db, campaignId, events);
    const snapshot = { sessionId, at: events[Math.floor(events.length / 2)].timestamp };
    const firstDay = Math.floor(Date.now() / 86_400_000) - DAYS + 1;
    const seed = (page: string, n: number) =>
      seedHeatmapPage(server.db, { campaignId, page, device: 'desktop', clicks: n }, { firstDay, days: DAYS, snapshot });
    await seed('/big', clicks);
    await seed('/small', 100);
    const url = (page: string) => `${server.url}/campaign/${campaignId}/heatmaps?path=${encodeURIComponent(page)}&device=desktop`;
    return withBrowser(async (browser) => {
      // A full run installs the app afresh for each run (a new browser context); --quick installs
      // it once for all its runs (each opening is still a new tab), and keeps its warm-up run.
      const shared = options.quick ? await installedApp(browser, server, owner) : undefined;
      try {
        const measure = (page: string) => async () => {
          const context = shared ?? (await installedApp(browser, server, owner));
          try {
            return await openings(context, url(page), campaignId, opens);
          } finally {
            if (!shared) await context.close();
          }
        };
        const ours = await latencies(options, measure('/big'), true);
        const base = await latencies(options, measure('/small'), true);
        const name = `answer → overlay drawn, a page with ${clicks.toLocaleString('en-US')} clicks over ${DAYS} days`;
        return latencyRows(title, name, ours, 'same screen, a page with 100 clicks', base, BUDGET_P95_MS);
      } finally {
        await shared?.close();
      }
    });
  });
}
