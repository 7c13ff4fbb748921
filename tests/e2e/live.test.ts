import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { accessTokenExpiringIn, userSession } from '../helpers/auth.js';
import { makeCampaign } from '../integration/ingest-support.js';
import { buildTracker } from '../../tracker/build.mjs';
import { fillLoader } from '../../common/loader-script.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { step, until } from './step.js';
import { ACCESS_COOKIE } from '../../server/auth/tokens.js';
import { flushRecorder, recorderRunning, startSite, type Site } from './tracker-site.js';

// The owner watches as it happens: the sessions page gets the visitor's new session without
// Refresh, and the replay page follows the visit live until the session ends. Real server, real
// tracker in a visitor's own browser, real EventSource in the owner's.

/** Batches a session may send here: the visitor reaches it, which ends the session (a cap closes it). */
const MAX_BATCHES = 12;

/** A page whose button writes what was clicked into the page (typed text is masked in recordings). */
const clicker = (tag: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Live shop</title>${tag}</head>
<body><h1>Live shop</h1><button id="more" type="button">More</button><ul id="log"></ul>
<script>var n = 0; document.getElementById('more').addEventListener('click', function () {
  var li = document.createElement('li'); li.textContent = 'Visitor clicked ' + (++n); document.getElementById('log').appendChild(li);
});</script></body></html>`;

const VISITOR_BROWSER = [
  '--user-agent=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  '--disable-blink-features=AutomationControlled',
];

describe.skipIf(!hasChromium)('watching live', () => {
  let server: TestServer;
  let browser: Browser;
  let visitorBrowser: Browser;
  let site: Site;

  beforeAll(async () => {
    [server, browser, visitorBrowser, site] = await Promise.all([
      startServer({ SESSION_MAX_BATCHES: String(MAX_BATCHES) }, { privateDist: true }),
      launchChromium(),
      launchChromium(VISITOR_BROWSER),
      startSite({ '/live.html': clicker }),
    ]);
    await buildTracker(path.join(server.config.distDir, 'tracker'));
  });
  afterAll(async () => {
    await browser?.close();
    await visitorBrowser?.close();
    await site?.close();
    await server?.close();
  });

  /** The player's iframe shows `text`. */
  const playerShows = (page: Page, text: string) =>
    page.evaluate(
      (text) => Boolean(document.querySelector<HTMLIFrameElement>('.replayer-wrapper iframe')?.contentDocument?.body?.textContent?.includes(text)),
      text,
    );

  it('shows a new session without Refresh and follows it on the replay page until it ends', async () => {
    const origin = server.config.publicUrl;
    const owner = await userSession(server, 'Live Owner');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, domains: `127.0.0.1:${site.port}` });
    const file = `/magicFormat-${campaignId}.js`;
    const template = await (await fetch(`${server.url}/static/magicFormat.js`)).text();
    site.install(`<script src="${file}"></script>`, { [file]: fillLoader(template, campaignId, origin) });

    const ownerContext = await signedInContext(browser, origin, owner, { viewport: { width: 1280, height: 900 } });
    const page = await ownerContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    onTestFailed(async () => {
      await page.screenshot({ path: path.resolve('test-results/live-FAILED.png'), fullPage: true }).catch(() => undefined);
    });
    const visitorContext = await visitorBrowser.newContext({ viewport: { width: 1024, height: 700 } });
    const visitor = await visitorContext.newPage();
    let sessionId = '';

    await step('1. The sessions page goes live and gets the new session without Refresh', async () => {
      await page.goto(`${origin}/campaign/${campaignId}`);
      await page.getByText('No sessions found').waitFor();
      await page.getByTestId('live-badge').waitFor();
      // The spec's title stays word for word: the badge stands beside it, not in it.
      await page.getByRole('heading', { level: 1, name: 'Campaign Sessions', exact: true }).waitFor({ timeout: 2000 });
      // Marks this document: a reload would lose it.
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

      await visitor.goto(`${site.url}/live.html`);
      await recorderRunning(visitor);
      await flushRecorder(visitor);
      const card = page.getByTestId('session-card');
      await card.waitFor({ timeout: 20_000 });
      const listed = (await (await ownerContext.request.get(`${origin}/api/v1/streaming/sessions/${campaignId}/`)).json()) as SessionsResponse;
      sessionId = listed.sessions[0].sessionId;
      await card.getByText(sessionId.slice(0, 8), { exact: true }).waitFor();
      // The counters follow (fetched again by themselves).
      await page.getByLabel('Session counters').getByText('Total Sessions').locator('..').getByText('1', { exact: true }).waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    });

    await step("2. The replay page shows 'Live' and the visitor's click appears in the player", async () => {
      const streams: string[] = [];
      const listen = (request: { url(): string }) => void (request.url().includes('/api/v1/replay/live/') && streams.push(request.url()));
      page.on('request', listen);
      await page.getByTestId('session-card').getByRole('link', { name: 'Watch Replay' }).click();
      await page.waitForURL(`${origin}/campaign/${campaignId}/session/${sessionId}`);
      await page.locator('.rr-player').waitFor();
      await page.getByTestId('live-badge').waitFor();
      expect(await page.locator('#player-title').textContent()).toMatch(/^\d+ events recorded$/);
      await until('the recorded page in the player', () => playerShows(page, 'Live shop'));
      // Not flushed by hand: the tracker sends by itself, every second while someone watches.
      await visitor.click('#more');
      await until("the visitor's click in the owner's player", () => playerShows(page, 'Visitor clicked 1'));
      expect(await page.getByRole('button', { name: 'Jump to live' }).count()).toBe(0);
      // The stream starts after the batches the download carried: the backlog is not sent again.
      expect(new URL(streams[0] ?? 'http://x/').searchParams.get('after')).toMatch(/^\d+(,|$)/);
      page.off('request', listen);
    });

    await step("3. Seeking back offers 'Jump to live', which returns to the latest moment", async () => {
      const recording = page.locator('.player-host');
      const before = await recording.boundingBox();
      await page.getByRole('slider', { name: 'Playback position' }).focus();
      await page.keyboard.press('Home');
      const jump = page.getByRole('button', { name: 'Jump to live' });
      await jump.waitFor();
      // In the controls, below the recording, which keeps its size: it covers nothing recorded.
      const [box, after] = [await jump.boundingBox(), await recording.boundingBox()];
      expect(after).toEqual(before);
      expect(box && after && box.y >= after.y + after.height).toBe(true);
      // Beside the recording's length, not instead of it (issue 24, item 3).
      expect(await page.getByRole('group', { name: 'Player controls' }).locator('.player-time-total').textContent()).toMatch(/^\d\d:\d\d$/);
      const time = page.getByTestId('player-time');
      expect(await time.textContent()).toBe('00:00');
      await visitor.click('#more');
      await jump.click();
      await until('the latest moment in the player', () => playerShows(page, 'Visitor clicked 2'));
      expect(await time.textContent()).not.toBe('00:00');
      await jump.waitFor({ state: 'detached' });
    });

    await step('3½. The access token runs out: the stream closes with it and the page reconnects by itself', async () => {
      // The page opens its stream with a token that expires in 3 s (same sign-in, signed by the server's key).
      const soon = await accessTokenExpiringIn(server, owner, 3);
      await ownerContext.addCookies([{ name: ACCESS_COOKIE, value: soon, url: origin }]);
      const liveUrl = `/api/v1/replay/live/${campaignId}/${sessionId}`;
      let opened = 0;
      page.on('request', (request) => void (request.url().includes(liveUrl) && opened++));
      const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/refresh') && response.status() === 200, { timeout: 30_000 });
      await page.reload();
      await page.locator('.rr-player').waitFor();
      // The server ends the stream with its token; the reconnect's 401 makes the page refresh the session and open it again.
      await refreshed;
      await until('the stream opened again after the refresh', async () => opened >= 3);
      await visitor.click('#more');
      await until("the visitor's click after the reconnect", () => playerShows(page, 'Visitor clicked 3'));
    });

    await step("4. The session ends: 'Live' goes and the page is a plain replay", async () => {
      // The visitor goes on until the session reaches its batch cap, which closes it.
      await until(
        'the end of the session',
        async () => {
          if ((await page.getByTestId('live-badge').count()) === 0) return true;
          await visitor.click('#more').catch(() => undefined);
          await flushRecorder(visitor).catch(() => undefined);
          return false;
        },
        100,
      );
      const row = await server.db.selectFrom('sessions').select('closed_reason').where('id', '=', sessionId).executeTakeFirstOrThrow();
      expect(row.closed_reason).toContain(`${MAX_BATCHES} batches`);
      await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Jump to live' }).count()).toBe(0);
      expect(errors).toEqual([]);
    });

    await visitorContext.close();
    await ownerContext.close();
  });
});
