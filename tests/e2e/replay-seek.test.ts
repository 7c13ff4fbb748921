import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { step } from './step.js';
import { documentNode, el, text } from './replay-fixtures.js';
import { formatPlayerTime } from '../../src/components/player/playerMath.js';

// Issue 24, items 1 and 2: a replay you can trust. One player is sought in every order (forward,
// back, to the start then forward, to the end then back) by the scrubber, the keyboard and the
// timeline's markers; after each seek the recorded page shows what a fresh load at that moment
// (`?t=`) shows. (The player's fit is in replay-fit.test.ts.)

vi.setConfig({ testTimeout: 180_000 });

const CHANGES = 5;
const CHANGE_EVERY_MS = 10_000;
const LENGTH_MS = 60_000;

/**
 * A 60 s visit to a shop: every 10 s the visitor clicks "Add" and the page changes one text (the
 * cart badge) and replaces another's text node (the status line), as React does.
 */
function shopVisit(start: number): ReplayEvent[] {
  const node = documentNode(
    el(4, 'head', {}),
    el(5, 'body', {}, [
      el(6, 'span', { id: 'badge' }, [text(7, '0')]),
      el(8, 'p', { id: 'status' }, [text(9, 'Ready')]),
      el(10, 'button', {}, [text(11, 'Add')]),
    ]),
  );
  const changes = Array.from({ length: CHANGES }, (_, i) => {
    const at = start + (i + 1) * CHANGE_EVERY_MS;
    const oldText = i === 0 ? 9 : 100 + i - 1;
    return [
      { type: 3, data: { source: 2, type: 2, id: 10, x: 20, y: 80 }, timestamp: at },
      {
        type: 3,
        data: {
          source: 0,
          texts: [{ id: 7, value: String(i + 1) }],
          attributes: [],
          removes: [{ parentId: 8, id: oldText }],
          adds: [{ parentId: 8, nextId: null, node: text(100 + i, `Added ${i + 1}`) }],
        },
        timestamp: at + 100,
      },
    ];
  }).flat();
  const moves = Array.from({ length: LENGTH_MS / 2000 }, (_, i) => ({
    type: 3,
    data: { source: 1, positions: [{ x: 10 + i, y: 10, id: 5, timeOffset: 0 }] },
    timestamp: start + 1000 + i * 2000,
  }));
  const events = [
    { type: 4, data: { href: 'https://shop.example/', width: 1024, height: 640 }, timestamp: start },
    { type: 2, data: { node, initialOffset: { left: 0, top: 0 } }, timestamp: start + 10 },
    ...changes,
    ...moves,
    { type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 5, timeOffset: 0 }] }, timestamp: start + LENGTH_MS },
  ];
  return events.sort((a, b) => a.timestamp - b.timestamp);
}

/** What the page shows at `seconds`: the changes made by then. */
function truthAt(seconds: number): string {
  const made = Math.min(CHANGES, Math.floor((seconds * 1000 - 100) / CHANGE_EVERY_MS));
  return made <= 0 ? '0|Ready' : `${made}|Added ${made}`;
}

describe.skipIf(!hasChromium)('seeking a replay', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let campaignId = '';
  let session = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
    const owner = await userSession(server, 'Sam Seek');
    campaignId = await makeCampaign(server, { ownerId: owner.userId });
    session = sessionId();
    const answer = await postBatch(server, campaignId, { sessionId: session, seq: 0, info: info(), events: shopVisit(Date.now() - 5 * 60_000) });
    expect(await answer.json()).toEqual({ stored: true });
    context = await signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const replayUrl = (t?: number) => `${server.config.publicUrl}/campaign/${campaignId}/session/${session}${t === undefined ? '' : `?t=${t}`}`;
  const slider = (page: Page) => page.getByRole('slider', { name: 'Playback position' });
  /** The badge and the status line inside the recording's frame. */
  const shown = (page: Page) =>
    page
      .frameLocator('.replayer-wrapper iframe')
      .locator('body')
      .evaluate((body) => `${body.querySelector('#badge')?.textContent}|${body.querySelector('#status')?.textContent}`)
      .catch(() => 'not drawn');

  async function open(page: Page, t?: number) {
    await page.goto(replayUrl(t));
    await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByRole('button', { name: 'Play' }).isEnabled()).toBe(true);
  }

  /** What a fresh load of `?t=seconds` shows (checked against the recording itself). */
  const fresh = new Map<number, string>();
  async function freshLoadAt(seconds: number): Promise<string> {
    const known = fresh.get(seconds);
    if (known) return known;
    const page = await context.newPage();
    await open(page, seconds);
    await expect.poll(() => shown(page)).toBe(truthAt(seconds));
    const text = await shown(page);
    await page.close();
    fresh.set(seconds, text);
    return text;
  }

  it('shows after every seek, in any order and by any control, what a fresh load at that moment shows', async () => {
    const page = await context.newPage();
    await open(page);
    await expect.poll(() => shown(page)).toBe('0|Ready');
    const seeks: [string, number, () => Promise<unknown>][] = [
      ['scrubber forward', 25, () => slider(page).fill('25000')],
      ['scrubber back', 15, () => slider(page).fill('15000')],
      ['Home: the start', 0, () => slider(page).press('Home')],
      ['scrubber forward after the start', 45, () => slider(page).fill('45000')],
      ['End: the end', 60, () => slider(page).press('End')],
      ['← back from the end', 55, () => slider(page).press('ArrowLeft')],
      [
        'marker back',
        20,
        () =>
          page
            .getByRole('button', { name: /(^|, )Click( on '[^']*')? at 00:20(,|$)/ })
            .first()
            .click(),
      ],
      ['Home again', 0, () => slider(page).press('Home')],
      [
        'marker forward after the start',
        40,
        () =>
          page
            .getByRole('button', { name: /(^|, )Click( on '[^']*')? at 00:40(,|$)/ })
            .first()
            .click(),
      ],
      ['scrubber back to the first change', 11, () => slider(page).fill('11000')],
      ['→ forward', 16, () => slider(page).press('ArrowRight')],
    ];
    for (const [name, seconds, seek] of seeks) {
      await step(`${name} (${seconds} s)`, async () => {
        const expected = await freshLoadAt(seconds);
        await seek();
        await expect.poll(() => page.getByTestId('player-time').textContent()).toBe(formatPlayerTime(seconds * 1000));
        await expect.poll(() => shown(page)).toBe(expected);
      });
    }
    await page.close();
  });
});
