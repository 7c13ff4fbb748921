import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { step } from './step.js';
import { documentNode, el, text } from './replay-fixtures.js';
import { formatPlayerTime } from '../../src/components/player/playerMath.js';

// Issue 36, items 3 and 10: the player's fit is right however slow the machine, and ← ← moves 10 s
// everywhere. A slow machine (CPU slowed down 4× through the DevTools protocol, as a busy CI
// runner or a cheap phone is) draws what stands around the recording (the campaign's name, the
// Live badge, the activity strip) after the recording: none of it may move the recording, so the
// box it has before fullscreen is the box it gets back.

vi.setConfig({ testTimeout: 180_000 });

const LENGTH_MS = 30_000;
const CHANGE_EVERY_MS = 5000;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** A 30 s visit: the counter on the page goes up half a second after every 5th second. */
function counterVisit(start: number): ReplayEvent[] {
  const node = documentNode(el(4, 'head', {}), el(5, 'body', {}, [el(6, 'span', { id: 'count' }, [text(7, '0')])]));
  const changes = Array.from({ length: LENGTH_MS / CHANGE_EVERY_MS - 1 }, (_, i) => ({
    type: 3,
    data: { source: 0, texts: [{ id: 7, value: String(i + 1) }], attributes: [], removes: [], adds: [] },
    timestamp: start + (i + 1) * CHANGE_EVERY_MS + 500,
  }));
  return [
    { type: 4, data: { href: 'https://shop.example/', width: 1024, height: 640 }, timestamp: start },
    { type: 2, data: { node, initialOffset: { left: 0, top: 0 } }, timestamp: start + 10 },
    ...changes,
    { type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 5, timeOffset: 0 }] }, timestamp: start + LENGTH_MS },
  ];
}

/** The counter at `seconds`. */
const countAt = (seconds: number) => String(Math.max(0, Math.floor((seconds * 1000 - 500) / CHANGE_EVERY_MS)));

/** The page's CPU slowed down `rate` times (1: as it is). */
async function slowDown(context: BrowserContext, page: Page, rate: number) {
  if (rate === 1) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** Requests held until `release()` (what a slow network or a busy server answers late). */
async function holdRequests(page: Page, pattern: string) {
  const held: Route[] = [];
  let released = false;
  await page.route(pattern, (route) => (released ? route.continue() : void held.push(route)));
  return async () => {
    released = true;
    await Promise.all(held.map((route) => route.continue()));
  };
}

describe.skipIf(!hasChromium)('the player fitted on a slow machine', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: Awaited<ReturnType<typeof userSession>>;
  let campaignId = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
    owner = await userSession(server, 'Fiona Fit');
    campaignId = await makeCampaign(server, { ownerId: owner.userId });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A new visit, stored now (so it is Live for a minute). */
  async function recordVisit(): Promise<string> {
    const session = sessionId();
    const answer = await postBatch(server, campaignId, { sessionId: session, seq: 0, info: info(), events: counterVisit(Date.now() - 2 * 60_000) });
    expect(await answer.json()).toEqual({ stored: true });
    return session;
  }

  async function openPage(options: typeof DESKTOP | typeof PHONE, rate: number) {
    const context = await signedInContext(browser, server.config.publicUrl, owner, options);
    const page = await context.newPage();
    await slowDown(context, page, rate);
    return { context, page };
  }

  async function open(page: Page, session: string) {
    await page.goto(`${server.config.publicUrl}/campaign/${campaignId}/session/${session}`);
    await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByRole('button', { name: 'Play' }).isEnabled()).toBe(true);
  }

  const recordingBox = async (page: Page) => {
    const box = await page.locator('.replayer-wrapper iframe').boundingBox();
    return box && [box.x, box.y, box.width, box.height].map(Math.round);
  };
  /** What the fit is worked out from: where the recording's stage starts, and the height of what is under it. */
  const room = (page: Page) =>
    page.getByRole('region', { name: 'Session replay' }).evaluate((player) => {
      const [stage, under] = Array.from(player.children);
      return { stageTop: stage.getBoundingClientRect().top + window.scrollY, underHeight: under.getBoundingClientRect().height };
    });

  it('keeps the recording where it is drawn while the campaign name, the Live badge and the activity strip arrive later', async () => {
    const session = await recordVisit();
    const { context, page } = await openPage(DESKTOP, 1);
    const releaseName = await holdRequests(page, '**/api/v1/campaign/getAll');
    const releaseLive = await holdRequests(page, '**/api/v1/replay/live/**');
    await open(page, session);
    const before = { room: await room(page), box: await recordingBox(page) };
    await Promise.all([releaseName(), releaseLive()]);
    await page.getByText('Ingest test', { exact: true }).waitFor();
    await page.getByTestId('live-badge').waitFor();
    await page.getByRole('group', { name: 'Activity timeline' }).waitFor();
    expect(await room(page)).toEqual(before.room);
    await expect.poll(() => recordingBox(page)).toEqual(before.box);
    await context.close();
  });

  for (const rate of [1, 4]) {
    it(`gives the recording back its box when fullscreen is left (CPU ${rate}× slower)`, async () => {
      const { context, page } = await openPage(DESKTOP, rate);
      await open(page, await recordVisit());
      const before = (await recordingBox(page))!;
      await page.getByRole('button', { name: 'Fullscreen' }).click();
      await page.getByRole('button', { name: 'Exit fullscreen' }).waitFor();
      await expect.poll(async () => (await recordingBox(page))![2]).toBeGreaterThan(before[2]);
      await page.getByRole('button', { name: 'Exit fullscreen' }).click();
      await page.getByRole('button', { name: 'Fullscreen' }).waitFor();
      // The same box, to the pixel, with the controls still on the 800-pixel-high screen.
      await expect.poll(() => recordingBox(page)).toEqual(before);
      const controls = (await page.getByRole('slider', { name: 'Playback position' }).boundingBox())!;
      expect(controls.y + controls.height).toBeLessThanOrEqual(800);
      await context.close();
    });
  }

  it('fits the recording again when something above it grows later (only the page layout says so)', async () => {
    const { context, page } = await openPage(DESKTOP, 1);
    await open(page, await recordVisit());
    const before = (await recordingBox(page))!;
    // Something above the player grows after the fit: the room below it shrinks, with no resize
    // of the window or of the player's box.
    await page.evaluate(() => {
      const late = document.createElement('div');
      late.style.height = '300px';
      (document.querySelector('main') ?? document.body).prepend(late);
    });
    await expect.poll(async () => (await recordingBox(page))![3]).toBeLessThan(before[3] - 100);
    // The controls below it are still on the 800-pixel-high screen.
    const controls = (await page.getByRole('slider', { name: 'Playback position' }).boundingBox())!;
    expect(controls.y + controls.height).toBeLessThanOrEqual(800);
    await context.close();
  });

  for (const [device, options, rate] of [
    ['a phone', PHONE, 4],
    ['a desktop', DESKTOP, 1],
  ] as const) {
    it(`moves 10 s for ← ← and → → on ${device}, on the scrubber and on the page (CPU ${rate}× slower)`, async () => {
      const { context, page } = await openPage(options, rate);
      await open(page, await recordVisit());
      const slider = page.getByRole('slider', { name: 'Playback position' });
      const shown = () =>
        page
          .frameLocator('.replayer-wrapper iframe')
          .locator('#count')
          .textContent()
          .catch(() => 'not drawn');
      const presses: [string, number, () => Promise<unknown>][] = [
        ['End on the scrubber', 30, () => slider.press('End')],
        ['← ← on the scrubber', 20, async () => (await slider.press('ArrowLeft'), await slider.press('ArrowLeft'))],
        ['← ← on the page', 10, async () => (await slider.blur(), await page.keyboard.press('ArrowLeft'), await page.keyboard.press('ArrowLeft'))],
        ['→ → on the scrubber', 20, async () => (await slider.press('ArrowRight'), await slider.press('ArrowRight'))],
      ];
      for (const [name, seconds, press] of presses) {
        await step(`${name} (${seconds} s)`, async () => {
          await press();
          await expect.poll(() => page.getByTestId('player-time').textContent()).toBe(formatPlayerTime(seconds * 1000));
          await expect.poll(shown).toBe(countAt(seconds));
        });
      }
      await context.close();
    });
  }
});
