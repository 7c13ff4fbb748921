import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildTracker } from '../../tracker/build.mjs';
import { makeCampaign, storedCounts } from '../integration/ingest-support.js';
import { flushRecorder, recorderRunning, startSite, type Site } from './tracker-site.js';

// The real tracker in Chromium against ingest's limits: it waits as long as a 429's Retry-After
// asks (and keeps recording), and a session closed at its cap stops the tab for good.

describe.skipIf(!hasChromium)('the tracker meets ingest limits', () => {
  let site: Site;
  let browser: Browser;
  let distDir: string;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-e2e-dist-'));
    await buildTracker(path.join(distDir, 'tracker'));
    site = await startSite();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    for (const server of servers) await server.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  async function serverWith(env: Record<string, string>): Promise<TestServer> {
    const server = await startServer({ DIST_DIR: distDir, ...env });
    servers.push(server);
    return server;
  }

  /** A visitor on the shop's checkout page with the hosted one-line install; `answers` collects ingest's replies. */
  async function visit(server: TestServer, campaignId: string, { clock = false } = {}) {
    site.install(`<script async src="${server.url}/t/${campaignId}.js"></script>`);
    const context = await browser.newContext();
    const page = await context.newPage();
    const answers: Response[] = [];
    page.on('response', (r) => r.url().includes('/api/v1/ingest/') && r.request().method() === 'POST' && answers.push(r));
    // A clock the test can move on at once (it runs at the normal pace until then).
    if (clock) await page.clock.install();
    await page.goto(`${site.url}/checkout.html`);
    await recorderRunning(page);
    return { context, page, answers };
  }

  /** Something to record, then a flush; resolves with ingest's answer to it. */
  async function activityThenFlush(page: Page, answers: Response[]): Promise<Response> {
    const before = answers.length;
    await page.mouse.move(10 + before, 20 + before);
    await page.click('#email');
    await page.keyboard.type('x');
    await flushRecorder(page);
    await until(() => answers.length > before);
    return answers[before];
  }

  async function until(probe: () => boolean, tries = 200): Promise<void> {
    for (let i = 0; i < tries; i++) {
      if (probe()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('condition not met in time');
  }

  it('waits what Retry-After asks after a 429 instead of retrying at once, and goes on recording', async () => {
    const server = await serverWith({ RATE_BATCHES_PER_SESSION: '1' });
    const campaignId = await makeCampaign(server, { domains: `127.0.0.1:${site.port}` });
    const { context, page, answers } = await visit(server, campaignId, { clock: true });
    let sent = 0;
    page.on('request', (r) => r.url().includes('/api/v1/ingest/') && r.method() === 'POST' && sent++);
    expect((await activityThenFlush(page, answers)).status()).toBe(200);
    const limited = await activityThenFlush(page, answers);
    expect(limited.status()).toBe(429);
    expect(Number(limited.headers()['retry-after'])).toBeGreaterThan(5);
    // Without Retry-After the back-off would try again within 1 s; the tracker must stay quiet.
    // The page's clock runs 3 s at once; a request the page makes after that marks the end, and
    // the browser reports a page's requests in order, so any retry of those 3 s is counted first.
    const count = sent;
    await page.clock.runFor(3000);
    const marker = page.waitForRequest((r) => r.url().includes('after-three-seconds'));
    await page.evaluate(() => void fetch('/?after-three-seconds').catch(() => undefined));
    await marker;
    expect(sent).toBe(count);
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('tapedeck') ?? '{}').off)).toBeUndefined();
    expect(await page.evaluate(() => typeof (window as { tapedeck?: { flush?: unknown } }).tapedeck?.flush)).toBe('function');
    await context.close();
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 1 });
  });

  it('stops for the tab when the session is closed at its cap (410), and its next page sends nothing', async () => {
    const server = await serverWith({ SESSION_MAX_BATCHES: '2', RATE_BATCHES_PER_SESSION: '0' });
    const campaignId = await makeCampaign(server, { domains: `127.0.0.1:${site.port}` });
    const { context, page, answers } = await visit(server, campaignId);
    expect((await activityThenFlush(page, answers)).status()).toBe(200);
    expect((await activityThenFlush(page, answers)).status()).toBe(200);
    const closed = await activityThenFlush(page, answers);
    expect(closed.status()).toBe(410);
    await page.waitForFunction(() => JSON.parse(sessionStorage.getItem('tapedeck') ?? '{}').off === 1);
    const count = answers.length;
    await page.click('#next');
    await page.waitForURL(`${site.url}/thanks.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/static/recorder.js')));
    expect(await page.evaluate(() => typeof (window as { tapedeck?: { flush?: unknown } }).tapedeck?.flush)).toBe('undefined');
    await context.close();
    expect(answers.length).toBe(count);
    // The two batches and the closing note.
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 3 });
  });
});
