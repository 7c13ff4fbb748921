import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD } from '../helpers/signin.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { Campaign } from '../../common/api-types.js';
import { OFFLINE_WRITE_MESSAGE } from '../../src/offline/network.js';
import { step } from './step.js';
import { demoEvents, pixelDifference, startCustomerSite, styledRecording, type CustomerSite } from './offline-fixtures.js';

// The offline journey in real Chromium against a real server and the built app: install
// checks, watch a real recorded session online, go offline, reload, open it from /saved and
// see it play, the dashboard from the persisted cache with the banner, writes refused, back
// online (lists and a still-recording replay refresh), logout wipes the device. Screenshots go to test-results/offline/ (git-ignored).

const shots = path.resolve('test-results/offline');
const HOUR = 60 * 60 * 1000;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The whole offline journey in one test, in named steps: generous, since every step may wait on a service worker.
vi.setConfig({ testTimeout: 240_000 });

describe.skipIf(!hasChromium)('offline replay library', () => {
  let server: TestServer;
  let browser: Browser;
  let site: CustomerSite;

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    [server, browser, site] = await Promise.all([startServer(), launchChromium(), startCustomerSite()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  async function signIn(page: Page, origin: string) {
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.getByLabel('Name').fill('Grace Offline');
    await page.getByLabel('Email').fill('grace.offline@example.test');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/dashboard`);
  }

  /**
   * Waits until the app's service worker is active (never, if its install fails), then until it
   * controls the page. A first install started on / may be cut short by the sign-in redirect; as
   * on a user's next visit, a reload then brings the page under the installed worker.
   */
  async function controlledByServiceWorker(page: Page) {
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }

  async function createCampaign(context: BrowserContext, origin: string, name: string): Promise<Campaign> {
    const now = Date.now();
    const response = await context.request.post(`${origin}/api/v1/campaign/create`, {
      headers: { origin },
      data: { name, domains: 'shop.example.com', limit: 0, start_date_time: now - HOUR, end_date_time: now + 24 * HOUR },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { data: Campaign }).data;
  }

  const frameShot = (page: Page) => page.locator('.replayer-wrapper iframe').first().screenshot();
  const replayRendered = (page: Page) =>
    page.waitForFunction(() => {
      const doc = document.querySelector<HTMLIFrameElement>('.replayer-wrapper iframe')?.contentDocument;
      const img = doc?.querySelector('img');
      return Boolean(img?.complete && img.naturalWidth > 0 && doc && getComputedStyle(doc.body).backgroundColor === 'rgb(253, 230, 138)');
    });

  it('is installable: Chromium reports no installability errors', async () => {
    // A persistent profile: Chromium never offers installation in incognito-like contexts.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-profile-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath()!, args: CHROMIUM_ARGS });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${server.config.publicUrl}/`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installabilityErrors).toEqual([]);
      const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
      expect(manifest.errors).toEqual([]);
      expect(manifest.url).toBe(`${server.config.publicUrl}/manifest.webmanifest`);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  it('keeps replays watchable offline, refreshes on reconnect and forgets them on logout', async () => {
    const origin = server.config.publicUrl;
    // Tall enough that the player's width, not the screen's height, sets the recording's size:
    // the offline banner above it must not change the size the two frame shots are compared at.
    const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
    // Service-worker installs and reconnect refreshes are slow on a loaded 2-core machine:
    // wait longer than Playwright's 30 s before calling a step failed.
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    onTestFailed(async () => {
      await page.screenshot({ path: path.join(shots, 'failure.png'), fullPage: true }).catch(() => undefined);
      fs.writeFileSync(path.join(shots, 'failure-console.txt'), `${page.url()}\n${consoleLines.join('\n')}`);
    });
    const see = (text: string | RegExp) => page.getByText(text).first().waitFor();

    // A real recorded session (the committed demo recording), a styled one on another origin,
    // and one still recording (saved incomplete, refreshed when the network returns).
    const demoId = 'demo-session-0001';
    const styledId = 'styled-session-0001';
    const liveId = 'live-session-0001';
    const firstPart = demoEvents.slice(0, 60);
    const saved = page.getByTestId('saved-replay');
    let campaign!: Campaign;
    let online!: Buffer;

    await step('1. Sign in; the worker installs; sessions are on the server', async () => {
      await signIn(page, origin);
      await controlledByServiceWorker(page);
      campaign = await createCampaign(context, origin, 'Offline Shop');
      const start = Date.now() - 2 * HOUR;
      await insertSession(server.db, {
        campaign_id: campaign.id,
        id: demoId,
        started_at: start,
        last_activity_at: start + 60_000,
        has_human_input: 1,
        language: 'en-GB',
        event_count: demoEvents.length,
      });
      await appendChunk(server.db, { campaignId: campaign.id, sessionId: demoId, seq: 0, events: demoEvents });
      const styled = styledRecording(site.origin, start);
      await insertSession(server.db, {
        campaign_id: campaign.id,
        id: styledId,
        started_at: start + 1,
        last_activity_at: start + 5_000,
        has_human_input: 1,
        language: 'de-DE',
        event_count: styled.length,
      });
      await appendChunk(server.db, { campaignId: campaign.id, sessionId: styledId, seq: 0, events: styled });

      // Its last batch an hour ahead: still recording (common/recording-now.ts) for the whole test, however slow the machine.
      await insertSession(server.db, {
        campaign_id: campaign.id,
        id: liveId,
        started_at: start + 2,
        last_activity_at: Date.now() + HOUR,
        has_human_input: 1,
        language: 'fr-FR',
        event_count: firstPart.length,
      });
      await appendChunk(server.db, { campaignId: campaign.id, sessionId: liveId, seq: 0, events: firstPart });
    });

    await step('2. Online: the lists are kept, a card is saved for offline', async () => {
      // Online: dashboard and sessions list (persisted), 'Save for offline' on a card.
      await page.goto(`${origin}/dashboard`);
      await see('1 of 1 campaigns');
      // Saves are throttled: wait until the device holds the list before leaving the page.
      await expect.poll(async () => JSON.stringify(await persistedQueries(page))).toContain('Offline Shop');
      await page.goto(`${origin}/campaign/${campaign.id}`);
      const styledCard = page.getByTestId('session-card').filter({ hasText: styledId });
      await styledCard.getByRole('button', { name: 'Save for offline' }).click();
      await styledCard.getByText('Available offline').waitFor();
      await expect.poll(async () => JSON.stringify(await persistedQueries(page))).toContain(liveId);
      // The insights of the last range viewed are kept too.
      await page.goto(`${origin}/campaign/${campaign.id}/insights`);
      await page.getByRole('region', { name: 'Countries' }).waitFor();
      await expect.poll(async () => JSON.stringify(await persistedQueries(page))).toContain('pagesFromSessions');
    });

    await step('3. Online: replays watched are kept by the worker', async () => {
      // Watch the demo replay online: the worker keeps it.
      await page.goto(`${origin}/campaign/${campaign.id}/session/${demoId}`);
      await see(`${demoEvents.length} events recorded`);
      await page.locator('.rr-player').waitFor();
      await page.getByTestId('offline-state').getByText('Available offline').waitFor();

      await page.goto(`${origin}/campaign/${campaign.id}/session/${liveId}`);
      await see(`${firstPart.length} events recorded`);
      await see('(still recording; refreshes when online)');

      // The styled replay online: its stylesheet and image render; screenshot the first frame.
      await page.goto(`${origin}/campaign/${campaign.id}/session/${styledId}`);
      await replayRendered(page);
      online = await frameShot(page);
      fs.writeFileSync(path.join(shots, 'styled-online.png'), online);
    });

    await step('4. Offline: a reload keeps the user and draws the replay as online', async () => {
      // Offline, reload: the shell comes from the worker, the user stays signed in.
      await context.setOffline(true);
      await page.reload();
      await replayRendered(page);
      const offline = await frameShot(page);
      fs.writeFileSync(path.join(shots, 'styled-offline.png'), offline);
      expect(await pixelDifference(page, online, offline)).toBeLessThan(0.01);
      await see(/^You're offline — showing data saved /);
      await see('Grace Offline');
    });

    await step('5. Offline: every route of the app opens', async () => {
      // Every route of the app opens offline through the navigation fallback.
      for (const route of ['/', '/dashboard', '/createCampaign', `/campaign/${campaign.id}`, '/auth/google/callback', '/saved', '/no-such-page']) {
        const response = await page.goto(`${origin}${route}`);
        expect(response?.fromServiceWorker()).toBe(true);
        await page.locator('header.navbar').waitFor();
      }
    });

    await step('6. Offline: /saved lists the replays and one plays', async () => {
      await page.getByRole('link', { name: 'Saved replays' }).click();
      await page.waitForURL(`${origin}/saved`);
      await expect.poll(() => saved.count()).toBe(3);
      await saved.filter({ hasText: liveId }).getByText('Still recording').waitFor();
      const demoItem = saved.filter({ hasText: demoId });
      for (const text of [demoId, 'Size', 'Saved']) await demoItem.getByText(text).first().waitFor();
      // Each named by its campaign, not by the campaign's id (kept in the title for copying).
      for (const id of [demoId, liveId]) {
        const named = saved.filter({ hasText: id }).locator('dt', { hasText: 'Campaign' }).locator('xpath=following-sibling::dd');
        expect(await named.textContent(), id).toBe('Offline Shop');
        expect(await named.getAttribute('title'), id).toBe(campaign.id);
      }
      await see(/^Storage used: .+ of .+ available to this app$/);
      await page.screenshot({ path: path.join(shots, 'saved-offline.png'), fullPage: true });
      await demoItem.getByRole('link', { name: 'Open' }).click();
      await page.waitForURL(`${origin}/campaign/${campaign.id}/session/${demoId}`);
      await see(`${demoEvents.length} events recorded`);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => {
        const time = document.querySelector('[data-testid="player-time"]')?.textContent ?? '00:00';
        return time !== '00:00';
      });
    });

    await step('7. Offline: pinning asks for persistent storage', async () => {
      // Pinning asks for persistent storage and survives a tiny budget.
      await page.goto(`${origin}/saved`);
      await saved.filter({ hasText: demoId }).getByRole('button', { name: 'Pin' }).click();
      await saved.filter({ hasText: demoId }).getByText('Pinned').waitFor();
    });

    await step('8. Offline: the dashboard renders from the device; writes are refused', async () => {
      // The dashboard renders from the persisted cache with the banner; writes are refused.
      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page.getByTestId('campaign-row').filter({ hasText: 'Offline Shop' }).waitFor();
      await see('1 of 1 campaigns');
      await see(/^You're offline — showing data saved /);
      await page.screenshot({ path: path.join(shots, 'dashboard-offline.png'), fullPage: true });
      await page.goto(`${origin}/campaign/${campaign.id}`).catch(() => undefined);
      await page.getByRole('button', { name: 'Delete Campaign' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete Campaign' }).click();
      await see(OFFLINE_WRITE_MESSAGE);
      // The insights screen draws the last range viewed from the device.
      await page.getByRole('link', { name: 'Insights' }).click();
      await page.waitForURL(`${origin}/campaign/${campaign.id}/insights`);
      await expect
        .poll(() =>
          page
            .locator('.stat')
            .filter({ has: page.getByText('Sessions', { exact: true }) })
            .locator('.stat-value')
            .innerText(),
        )
        .toBe('3');
      // Its charts too: uPlot came with the precached insights chunk.
      await page
        .getByRole('figure', { name: 'Sessions over time' })
        .getByRole('img', { name: /^Sessions per day/ })
        .waitFor();
    });

    await step('9. Back online: the lists and the still-recording replay refresh', async () => {
      // Meanwhile the live session records more and another campaign appears on the server;
      // back online the lists and the incomplete replay refresh.
      await appendChunk(server.db, { campaignId: campaign.id, sessionId: liveId, seq: 1, events: demoEvents.slice(60) });
      await createCampaignFromServer(server, context, origin, 'Summer Shop');
      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await see('1 of 1 campaigns');
      await context.setOffline(false);
      await see('2 of 2 campaigns');
      await page.getByTestId('campaign-row').filter({ hasText: 'Summer Shop' }).waitFor();
      await expect.poll(() => page.getByTestId('offline-banner').count()).toBe(0);
      await page.getByRole('link', { name: 'Saved replays' }).click();
      await saved.filter({ hasText: liveId }).getByText(String(demoEvents.length), { exact: true }).waitFor();
    });

    await step('10. Logout wipes the device', async () => {
      // Logout wipes the device: no saved replays, no asset cache, nothing of the user's in the
      // persisted query cache (the site's own public settings, fetched again on the landing page, may stay).
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL(`${origin}/`);
      await page.goto(`${origin}/saved`);
      await page.getByTestId('saved-empty').waitFor();
      expect(await page.evaluate(() => caches.has('tapedeck-replay-assets'))).toBe(false);
      expect((await persistedQueries(page)).map((query) => query.queryKey[0]).filter((key) => key !== 'siteConfig')).toEqual([]);
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Creates a campaign as the signed-in user from outside the (offline) browser. */
async function createCampaignFromServer(server: TestServer, context: BrowserContext, origin: string, name: string) {
  const cookies = await context.cookies(origin);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const now = Date.now();
  const response = await fetch(`${server.url}/api/v1/campaign/create`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ name, domains: 'summer.example.com', limit: 0, start_date_time: now - HOUR, end_date_time: now + 24 * HOUR }),
  });
  expect(response.status).toBe(201);
}

/** The queries in the persisted query cache (IndexedDB), as the page sees them. */
function persistedQueries(page: Page): Promise<{ queryKey: unknown[]; state: { data?: unknown } }[]> {
  return page.evaluate(
    () =>
      new Promise<{ queryKey: unknown[]; state: { data?: unknown } }[]>((resolve, reject) => {
        const open = indexedDB.open('tapedeck-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('queryCache').objectStore('queryCache').getAll();
          all.onsuccess = () => {
            // The persister stores each client as JSON text.
            const clients = (all.result as string[]).map(
              (text) => JSON.parse(text) as { clientState: { queries: { queryKey: unknown[]; state: { data?: unknown } }[] } },
            );
            resolve(clients.flatMap((client) => client.clientState.queries));
            open.result.close();
          };
        };
      }),
  );
}
