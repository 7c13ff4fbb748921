import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD } from '../helpers/signin.js';
import { buildTracker } from '../../tracker/build.mjs';
import type { Campaign, SessionsResponse } from '../../common/api-types.js';
import type { BrowserContext, Locator } from 'playwright-core';
import { step } from './step.js';
import { NOT_LIVE_OFFLINE } from '../../src/lib/liveFeed.js';
import { PAGE_SECRETS, TYPED, recorderRunning, shopAtCheckout, startSite, type Site } from './tracker-site.js';

// The whole product as a site owner uses it, with nothing inserted behind the app's back:
// sign in on a desktop, create a campaign, download its script, install it on a site on
// another origin, a visitor's session is recorded, the owner watches the replay; then on a
// phone the replay is kept for offline, the network goes away and it still plays from /saved.
// Screenshots go to test-results/journey/ (git-ignored).

const shots = path.resolve('test-results/journey');
/**
 * The visitor's own browser, an everyday Chrome: not automation-controlled (navigator.webdriver
 * false) and without 'HeadlessChrome' in its user agent — else the server rightly calls it a bot.
 * Switches, not context options: a context's user agent is not what a page reads while it unloads.
 */
const VISITOR_BROWSER = [
  '--user-agent=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  '--disable-blink-features=AutomationControlled',
];

describe.skipIf(!hasChromium)('a site owner journey', () => {
  let server: TestServer;
  let browser: Browser;
  let visitorBrowser: Browser;
  let site: Site;

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true });
    [server, browser, visitorBrowser, site] = await Promise.all([
      startServer({}, { privateDist: true }),
      launchChromium(),
      launchChromium(VISITOR_BROWSER),
      startSite(),
    ]);
    // The tracker as its sources say now (it builds in a second; scripts are read per request).
    await buildTracker(path.join(server.config.distDir, 'tracker'));
  });

  afterAll(async () => {
    await browser?.close();
    await visitorBrowser?.close();
    await site?.close();
    await server?.close();
  });

  /** Diagnostics on failure, a screenshot that also asserts no sideways scrolling. */
  function watch(page: Page, name: string) {
    const errors: string[] = [];
    const lines: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
    onTestFailed(async () => {
      await page.screenshot({ path: path.join(shots, `${name}-FAILED.png`), fullPage: true }).catch(() => undefined);
      console.log(`${name} failed at ${page.url()}\n${lines.join('\n')}`);
    });
    const shot = async (step: string) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${step} is wider than the screen`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(shots, `${name}-${step}.png`), fullPage: true });
    };
    return { errors, shot, see: (text: string | RegExp) => page.getByText(text).first().waitFor() };
  }

  /** The replayer's iframe shows the recorded page. */
  const seeRecordedPage = (page: Page, text: string) =>
    page.waitForFunction(
      (text) => document.querySelector<HTMLIFrameElement>('.replayer-wrapper iframe')?.contentDocument?.body?.textContent?.includes(text),
      text,
    );

  /** The player plays: press play, the time shown moves off 00:00, and it reaches the second page. */
  async function seePlaying(page: Page) {
    const time = page.getByTestId('player-time');
    expect(await time.textContent()).toBe('00:00');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="player-time"]')?.textContent ?? '00:00') !== '00:00');
    // Played through to the visitor's second page.
    await seeRecordedPage(page, 'Thank you');
  }

  it('signs in, creates a campaign, installs its script, watches a visit, and replays it offline on a phone', async () => {
    const origin = server.config.publicUrl;
    // Carried from step to step.
    const desktop: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const owner = await desktop.newPage();
    const ownerView = watch(owner, 'desktop');
    let row!: Locator;
    let campaign!: Campaign;
    let script = '';
    let sessionId = '';
    let eventCount = 0;
    let ownerState!: Awaited<ReturnType<BrowserContext['storageState']>>;

    await step('1. Desktop: sign in through the built-in provider', async () => {
      await owner.goto(`${origin}/`);
      await owner.getByRole('button', { name: 'Sign in with Google' }).first().click();
      await owner.getByLabel('Name').fill('Olivia Owner');
      await owner.getByLabel('Email').fill('olivia@shop.example');
      await owner.getByLabel('Password').fill(TEST_PASSWORD);
      await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
      await owner.waitForURL(`${origin}/dashboard`);
      await ownerView.see('Campaign Dashboard');
      await ownerView.see('Olivia Owner');
    });

    await step('2. Create a campaign for the site', async () => {
      await owner.getByRole('main').getByRole('link', { name: 'Create Campaign', exact: true }).click();
      await owner.waitForURL(`${origin}/createCampaign`);
      await owner.getByLabel('Campaign Name').fill('Checkout study');
      await owner.getByLabel('Domain to Accept Traffic From').fill(`127.0.0.1:${site.port}`);
      await owner.getByLabel('Session Limit').fill('10');
      const start = await owner.getByLabel('Start Date').inputValue();
      await owner.getByLabel('End Date').fill(start.replace(/^\d{4}/, (year) => String(Number(year) + 1)));
      await ownerView.shot('create');
      await owner.getByRole('button', { name: 'Create Campaign', exact: true }).last().click();
      await owner.waitForURL(`${origin}/dashboard`);
      row = owner.getByTestId('campaign-row').filter({ hasText: 'Checkout study' });
      await row.waitFor();
      for (const text of ['Active', '10 sessions', `127.0.0.1:${site.port}`]) await row.getByText(text).first().waitFor();
      const listed = (await (await desktop.request.get(`${origin}/api/v1/campaign/getAll`)).json()) as { data: Campaign[] };
      campaign = listed.data[0];
      expect(campaign).toMatchObject({ name: 'Checkout study', domains: `127.0.0.1:${site.port}`, limit: 10 });
      await ownerView.shot('dashboard');
    });

    await step('3. Download the script', async () => {
      const [download] = await Promise.all([owner.waitForEvent('download'), row.getByRole('button', { name: 'Download' }).click()]);
      expect(download.suggestedFilename()).toBe(`magicFormat-${campaign.id}.js`);
      script = fs.readFileSync((await download.path())!, 'utf8');
      const template = await (await fetch(`${server.url}/static/magicFormat.js`)).text();
      expect(script).toContain(`"${campaign.id}"`);
      expect(script).toContain(JSON.stringify(origin));
      // Minified: shorter than the template it was filled from, on one line, no comments left.
      expect(script.length).toBeLessThan(template.length);
      expect(script.trim().split('\n')).toHaveLength(1);
      expect(script).not.toMatch(/\/\*|^\s*\/\//m);
    });

    await step('4. The site installs the downloaded file; a visitor (their own browser) shops on it', async () => {
      const file = `/magicFormat-${campaign.id}.js`;
      site.install(`<script src="${file}"></script>`, { [file]: script });
      const visitorContext = await visitorBrowser.newContext({ viewport: { width: 1280, height: 720 } });
      const visitor = await visitorContext.newPage();
      await visitor.goto(`${site.url}/checkout.html`);
      await recorderRunning(visitor);
      await shopAtCheckout(visitor, site.url);
      await recorderRunning(visitor);
      // The visitor reads the page until 1.5 s have passed since the visit began: a scripted visit
      // can otherwise last under a second, and a replay under a second never moves the player's
      // clock off 00:00.
      await visitor.waitForFunction(() => performance.now() >= 1500, undefined, { polling: 100 });
      await visitor.click('#done');
      // The visitor closes the tab: the recorder flushes on pagehide (keepalive outlives the tab).
      await visitor.close({ runBeforeUnload: true });

      const sessionsUrl = `${origin}/api/v1/streaming/sessions/${campaign.id}/`;
      await expect
        .poll(
          async () => {
            const body = (await (await desktop.request.get(sessionsUrl)).json()) as SessionsResponse;
            return body.sessions.map((s) => ({ pages: s.pageCount, bot: s.isBot }));
          },
          { timeout: 20_000, interval: 250 },
        )
        .toEqual([{ pages: 2, bot: false }]);
      await visitorContext.close();
      const { sessions } = (await (await desktop.request.get(sessionsUrl)).json()) as SessionsResponse;
      sessionId = sessions[0].sessionId;
    });

    await step('5. The owner watches it', async () => {
      await row.getByRole('link', { name: 'View Recordings' }).click();
      await owner.waitForURL(`${origin}/campaign/${campaign.id}`);
      await ownerView.see('Campaign Sessions');
      // The sessions page and the replay page of a session just recorded go live.
      await owner.getByTestId('live-badge').waitFor();
      const card = owner.getByTestId('session-card').filter({ hasText: sessionId });
      await card.getByText('Human User').waitFor();
      // Titled by where the visit went: its entry page first.
      await card.getByText(/^\/checkout\.html → /).waitFor();
      await ownerView.shot('sessions');
      const replayAnswer = owner.waitForResponse((r) => r.url().includes(`/api/v1/replay/retrieve/${campaign.id}/${sessionId}`));
      await card.getByRole('link', { name: 'Watch Replay' }).click();
      await owner.waitForURL(`${origin}/campaign/${campaign.id}/session/${sessionId}`);
      await ownerView.see('Session Replay');
      const replayBody = await (await replayAnswer).text();
      eventCount = (JSON.parse(replayBody) as { events: unknown[] }).events.length;
      expect(eventCount).toBeGreaterThan(0);
      await ownerView.see(`${eventCount} events recorded`);
      await owner.locator('.rr-player').waitFor();
      await owner.getByTestId('live-badge').waitFor();
      // Live, it opens at the latest moment; back to the start, 'Jump to live' is offered.
      await owner.getByRole('slider', { name: 'Playback position' }).focus();
      await owner.keyboard.press('Home');
      await owner.getByRole('button', { name: 'Jump to live' }).waitFor();
      await seeRecordedPage(owner, 'Checkout');
      await seeRecordedPage(owner, 'Long product description');
      await seePlaying(owner);
      await ownerView.shot('replay');
      // Nothing the visitor typed, nor what the page hides, reached the owner.
      expect(replayBody).toContain('Buy now');
      for (const secret of [...Object.values(TYPED), ...PAGE_SECRETS]) expect(replayBody).not.toContain(secret);
      expect(replayBody).not.toContain('SECRET');
      ownerState = await desktop.storageState();
      expect(ownerView.errors).toEqual([]);
      await desktop.close();
    });

    // The phone's context, carried into the offline step.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, storageState: ownerState });
    const mobile = await phone.newPage();
    const phoneView = watch(mobile, 'phone');
    await step('6. Phone: the same owner opens the replay, so it is kept on the device', async () => {
      await mobile.goto(`${origin}/dashboard`);
      await phoneView.see('Campaign Dashboard');
      await mobile.getByTestId('campaign-row').filter({ hasText: 'Checkout study' }).getByRole('link', { name: 'View Recordings' }).click();
      await mobile.getByTestId('session-card').filter({ hasText: sessionId }).getByRole('link', { name: 'Watch Replay' }).click();
      await mobile.waitForURL(`${origin}/campaign/${campaign.id}/session/${sessionId}`);
      await phoneView.see(`${eventCount} events recorded`);
      await mobile.locator('.rr-player').waitFor();
      await mobile.getByTestId('offline-state').getByText('Available offline').waitFor();
      // The app shell works offline only once its service worker has installed and claimed the
      // page; on a slow machine that can finish after the replay is kept (CI went offline first).
      await mobile.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
      await phoneView.shot('replay-online');
    });

    await step('7. Phone, offline: the replay still plays from /saved', async () => {
      await phone.setOffline(true);
      await mobile.reload();
      await phoneView.see(/^You're offline — showing data saved /);
      await mobile.getByRole('button', { name: 'Toggle menu' }).click();
      await mobile.getByRole('link', { name: 'Saved replays' }).click();
      await mobile.waitForURL(`${origin}/saved`);
      await mobile.getByRole('heading', { name: 'Saved replays' }).waitFor();
      const saved = mobile.getByTestId('saved-replay').filter({ hasText: sessionId });
      await saved.waitFor();
      await phoneView.shot('saved-offline');
      await saved.getByRole('link', { name: 'Open' }).click();
      await mobile.waitForURL(`${origin}/campaign/${campaign.id}/session/${sessionId}`);
      await phoneView.see(`${eventCount} events recorded`);
      await mobile.locator('.rr-player').waitFor();
      // Still recording when it was kept: it plays what was saved and says it is not live.
      expect(await mobile.getByTestId('not-live-offline').textContent()).toBe(NOT_LIVE_OFFLINE);
      expect(await mobile.getByTestId('live-badge').count()).toBe(0);
      await seeRecordedPage(mobile, 'Checkout');
      const player = await mobile.locator('.rr-player').boundingBox();
      expect(player!.width).toBeLessThanOrEqual(390);
      await seePlaying(mobile);
      await phoneView.shot('replay-offline');
      expect(phoneView.errors).toEqual([]);
      await phone.close();
    });
  });
});
