import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { Heatmap, HeatmapClicks } from '../../common/api/heatmaps.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { step, until } from './step.js';
import { expectAccessible } from './a11y.js';
import { checkFilter } from './segments.js';

// Three visitors of a shop at 1280, 768 and 390 px click its "Add to cart" button; the desktop
// one rage-clicks it, the tablet one dead-clicks a label. The owner's heatmap puts the button on
// top at each device class, its hottest point inside the button as the rebuilt page draws it,
// and the rage layer holds the rage-clicking visitor alone.

// The button moves with the width (a sidebar on wide screens, stacked on narrow ones): heat must follow the element.
const product = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Mug</title>${loader}
<style>
  body { font-family: sans-serif; margin: 0; }
  main { display: flex; gap: 24px; padding: 24px; }
  .photo { width: 55%; height: 420px; background: #ddd; }
  .buy { flex: 1; }
  #add { display: block; width: 220px; height: 56px; margin-top: 40px; font-size: 18px; }
  @media (max-width: 900px) { main { flex-direction: column; } .photo { width: 100%; height: 260px; } }
</style></head><body>
<main><div class="photo"></div><div class="buy"><h1>Leaf mug</h1>
<form onsubmit="return false"><label class="size">Size</label></form>
<button id="add" type="button">Add to cart</button><p id="cart">Cart: 0</p></div></main>
<div style="height: 1200px"></div>
<script>
  var n = 0;
  document.getElementById('add').addEventListener('click', function () { document.getElementById('cart').textContent = 'Cart: ' + (++n); });
</script></body></html>`;

// Three products with one "Add to cart" each, deep in the page, and a newsletter's icon button with no words.
const shop = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Tea shop</title>${loader}
<style>body { font-family: sans-serif; margin: 0; } li { margin: 12px; } .go { width: 40px; height: 40px; }</style></head><body>
<h1>Tea shop</h1>
<div class="wrap"><div class="inner"><div class="grid"><div class="row"><ul class="products">
<li><h2>Kettle</h2><button type="button" class="add">Add to cart</button></li>
<li><h2>Teapot</h2><button type="button" class="add">Add to cart</button></li>
<li><h2>Mug</h2><button type="button" class="add">Add to cart</button></li>
</ul></div></div></div></div>
<aside aria-label="Newsletter"><div><div><div><button type="button" class="go"><svg width="16" height="16"><circle cx="8" cy="8" r="6"/></svg></button></div></div></div></aside>
<p id="cart">Cart: 0</p>
<script>
  var n = 0;
  document.querySelectorAll('.add').forEach(function (b) { b.addEventListener('click', function () { document.getElementById('cart').textContent = 'Cart: ' + (++n); }); });
</script></body></html>`;

describe.skipIf(!hasChromium)('heatmaps', () => {
  const rig = useVisitorRig({ '/product': product, '/shop': shop }, { tracker: 'with app' });

  /** A visitor at `width` px: clicks the button (`clicks` times, fast), maybe a label that does nothing; then moves on until `stored` holds. */
  async function visit(width: number, clicks: number, deadLabel: boolean, stored: () => Promise<boolean>): Promise<void> {
    const context = await rig.browser.newContext({ viewport: { width, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${rig.site.url}/product`);
    await recorderRunning(tab);
    for (let i = 0; i < clicks; i++) await tab.click('#add', { delay: 10 });
    if (deadLabel) await tab.click('label.size');
    // A dead click is known once a second passed with no answer: keep the visitor moving (each
    // move is a later event) until the heatmap shows what this visitor did.
    await until(`the ${width} px visit to be aggregated`, async () => {
      await tab.mouse.move(5 + Math.round(Math.random() * 50), 700);
      await flushRecorder(tab);
      return stored();
    });
    await context.close();
  }

  async function heatmap(owner: { headers: Record<string, string> }, campaignId: string, device: string): Promise<Heatmap> {
    const response = await fetch(`${rig.server.url}/api/v1/heatmaps/${campaignId}?path=/product&device=${device}`, { headers: owner.headers });
    return (await response.json()) as Heatmap;
  }

  /** The canvas's most opaque (hottest) pixel and the button's box in the drawn page, both where the screen shows them. */
  async function hottestAndButton(page: Page) {
    await page.waitForSelector('canvas[aria-label="Click heatmap"]');
    return until('the heat to be drawn', () =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('canvas[aria-label="Click heatmap"]')!;
        const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let best = -1;
        let at = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > best) [best, at] = [pixels[i], (i - 3) / 4];
        const frame = document.querySelector<HTMLIFrameElement>('.heatmap-page iframe')!;
        const button = frame.contentDocument?.querySelector('#add')?.getBoundingClientRect();
        if (best <= 0 || !button) return false;
        const onCanvas = canvas.getBoundingClientRect();
        const onFrame = frame.getBoundingClientRect();
        const frameScale = onFrame.width / frame.clientWidth;
        return {
          x: onCanvas.left + (at % canvas.width) * (onCanvas.width / canvas.width),
          y: onCanvas.top + Math.floor(at / canvas.width) * (onCanvas.height / canvas.height),
          box: {
            left: onFrame.left + button.left * frameScale,
            right: onFrame.left + button.right * frameScale,
            top: onFrame.top + button.top * frameScale,
            bottom: onFrame.top + button.bottom * frameScale,
          },
        };
      }),
    );
  }

  it('puts the button on top at each device class, heat inside it, and the rage layer on the rage-clicking visitor alone', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Hana Heat');

    await step('three visitors', async () => {
      await visit(1280, 4, false, async () => (await heatmap(owner, campaignId, 'desktop')).rageClicks === 1);
      await visit(768, 2, true, async () => (await heatmap(owner, campaignId, 'tablet')).deadClicks === 1);
      await visit(390, 1, false, async () => (await heatmap(owner, campaignId, 'mobile')).clicks === 1);
    });

    await step('the API puts the button on top at each device class', async () => {
      for (const device of ['desktop', 'tablet', 'mobile']) {
        const body = await heatmap(owner, campaignId, device);
        expect(body.elements[0], device).toMatchObject({ selector: '#add', text: 'Add to cart' });
      }
      const tablet = await heatmap(owner, campaignId, 'tablet');
      expect(tablet.elements.find((e) => e.selector !== '#add')).toMatchObject({ text: 'Size', deadClicks: 1 });
    });

    const context = await signedInContext(rig.browser, rig.server.url, owner, { viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    for (const device of ['desktop', 'tablet', 'mobile']) {
      await step(`the overlay's hottest point lies inside the button (${device})`, async () => {
        await page.goto(`${rig.server.url}/campaign/${campaignId}/heatmaps?path=%2Fproduct&device=${device}`);
        await page.getByRole('link', { name: 'Heatmaps' }).waitFor();
        // Only this screen's tab is the current one (the Sessions tab's route is this one's parent).
        const tabs = page.getByRole('navigation', { name: 'Campaign views' });
        expect(await tabs.locator('[aria-current="page"]').allTextContents()).toEqual(['Heatmaps']);
        const { x, y, box } = await hottestAndButton(page);
        expect(x).toBeGreaterThanOrEqual(box.left);
        expect(x).toBeLessThanOrEqual(box.right);
        expect(y).toBeGreaterThanOrEqual(box.top);
        expect(y).toBeLessThanOrEqual(box.bottom);
        // The rebuilt page is the visitor's rig.site, not ours (as on the replay page).
        await expectAccessible(page, `heatmaps (${device})`, ['.heatmap-page']);
      });
    }

    await step('the rage layer shows only the rage-clicking visitor', async () => {
      const desktopClickers = (await (
        await fetch(`${rig.server.url}/api/v1/heatmaps/${campaignId}/clicks?path=/product&device=desktop&selector=${encodeURIComponent('#add')}`, {
          headers: owner.headers,
        })
      ).json()) as HeatmapClicks;
      const rager = desktopClickers.sessions[0].sessionId;
      await page.goto(`${rig.server.url}/campaign/${campaignId}/heatmaps?path=%2Fproduct&device=desktop&layer=rage`);
      await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('1 click from 1 session');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      const links = page.getByRole('region', { name: 'Sessions that clicked it' }).getByRole('link');
      await expect.poll(() => links.count()).toBe(1);
      expect(await links.first().getAttribute('href')).toContain(`/session/${rager}`);
      for (const device of ['tablet', 'mobile']) {
        await page.goto(`${rig.server.url}/campaign/${campaignId}/heatmaps?path=%2Fproduct&device=${device}&layer=rage`);
        await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('0 clicks from 0 sessions');
      }
    });
    await step('a session filter narrows the heat to the matching sessions, and links to them', async () => {
      await page.goto(`${rig.server.url}/campaign/${campaignId}/heatmaps?path=%2Fproduct&device=tablet`);
      await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('3 clicks from 1 session');
      // A filter whose answer names the same snapshot keeps the rebuilt page: only the heat is redrawn.
      const canvas = page.locator('canvas[aria-label="Click heatmap"]');
      const drawnAt = await until('the heat to be drawn', () => canvas.getAttribute('data-drawn-at'));
      await page.locator('.heatmap-page iframe').evaluate((frame: HTMLElement) => (frame.dataset.kept = 'yes'));
      await checkFilter(page, 'Has dead clicks');
      await expect.poll(() => canvas.getAttribute('data-drawn-at')).not.toBe(drawnAt);
      expect(await page.locator('.heatmap-page iframe').getAttribute('data-kept')).toBe('yes');
      await checkFilter(page, 'Has dead clicks', false);
      await expect.poll(() => page.url()).not.toContain('hasDeadClicks');
      // The tablet visitor dead-clicked but never rage-clicked.
      await checkFilter(page, 'Has rage clicks');
      await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('0 clicks from 0 sessions');
      expect(page.url()).toContain('hasRageClicks=true');
      await checkFilter(page, 'Has rage clicks', false);
      await checkFilter(page, 'Has dead clicks');
      await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('3 clicks from 1 session');
      const sessions = page.getByRole('group', { name: 'Session filters' }).getByRole('link', { name: 'Sessions' });
      const href = new URL((await sessions.getAttribute('href')) ?? '', rig.server.url);
      expect(Object.fromEntries(href.searchParams)).toMatchObject({ hasDeadClicks: 'true', device: 'tablet', url: '/product' });
    });
    await context.close();
  });

  /**
   * A shop visitor at `width` px: a while on the page, then each product's "Add to cart" and the
   * icon button, until `stored` holds; their device's clock `behindMs` behind the server's.
   */
  async function shopVisit(width: number, behindMs: number, stored: () => Promise<boolean>): Promise<void> {
    const context = await rig.browser.newContext({ viewport: { width, height: 800 } });
    if (behindMs) await context.clock.setSystemTime(Date.now() - behindMs);
    const tab = await context.newPage();
    await tab.goto(`${rig.site.url}/shop`);
    await recorderRunning(tab);
    // Reading first: the clicks come seconds into the recording, where a replay link must open.
    await tab.mouse.move(200, 200);
    await tab.waitForTimeout(3500);
    for (const product of ['Kettle', 'Teapot', 'Mug']) await tab.locator('li', { hasText: product }).getByRole('button').click();
    await tab.click('.go');
    await until(`the ${width} px shop visit to be aggregated`, async () => {
      await tab.mouse.move(5 + Math.round(Math.random() * 50), 700);
      await flushRecorder(tab);
      return stored();
    });
    await context.close();
  }

  const shopHeatmap = async (owner: { headers: Record<string, string> }, campaignId: string, device: string) =>
    (await (await fetch(`${rig.server.url}/api/v1/heatmaps/${campaignId}?path=/shop&device=${device}`, { headers: owner.headers })).json()) as Heatmap;

  /** Whether the Elements table shows all of itself: nothing scrolled away, its last column inside its card. */
  async function elementsFit(page: Page, lastColumn: string) {
    const card = page.getByRole('region', { name: 'Most clicked elements' });
    const scroller = card.locator('.table-scroll');
    const [cardBox, columnBox] = [await card.boundingBox(), await card.getByRole('columnheader', { name: lastColumn }).boundingBox()];
    const sizes = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    return { overflow: sizes.scroll - sizes.client, columnInside: columnBox!.x + columnBox!.width <= cardBox!.x + cardBox!.width };
  }

  it('tells the rows apart, fits the table at 1280 and 390, opens a clicker just before the click, and picks the viewer’s device', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Tess Tell');
    await step('a desktop and a phone visitor', async () => {
      // The desktop's clock is two minutes slow (as many are): its replay's moments are on its own clock.
      await shopVisit(1280, 120_000, async () => (await shopHeatmap(owner, campaignId, 'desktop')).clicks >= 4);
      await shopVisit(390, 0, async () => (await shopHeatmap(owner, campaignId, 'mobile')).clicks >= 4);
    });

    const context = await signedInContext(rig.browser, rig.server.url, owner, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const rows = page.getByRole('region', { name: 'Most clicked elements' }).getByRole('rowheader');
    await step('at 1280: the desktop heat, rows told apart by their product, unlabelled ones named short, the table whole', async () => {
      await page.goto(`${rig.server.url}/campaign/${campaignId}/heatmaps?path=%2Fshop`);
      expect(await page.getByRole('combobox', { name: 'Device' }).inputValue()).toBe('desktop');
      await expect
        .poll(async () => (await rows.allTextContents()).sort())
        .toEqual(['Add to cart (Kettle)', 'Add to cart (Mug)', 'Add to cart (Teapot)', 'Button (Newsletter)'].sort());
      expect(await elementsFit(page, 'Dead')).toEqual({ overflow: 0, columnInside: true });
      await expectAccessible(page, 'heatmaps (shop, 1280)', ['.heatmap-page']);
    });

    await step('a clicker opens the replay a second before the click, whose activity says which button', async () => {
      await page.getByRole('button', { name: 'Add to cart (Teapot)' }).click();
      const clickers = page.getByRole('region', { name: 'Sessions that clicked it' });
      await clickers.getByRole('heading', { name: 'Sessions that clicked “Add to cart (Teapot)”' }).waitFor();
      await clickers.getByRole('link').first().click();
      const activity = page.getByRole('region', { name: 'Session activity' });
      const teapot = activity.getByRole('button', { name: /^\d\d:\d\d Click on 'Add to cart' \(Teapot\)$/ });
      await teapot.waitFor();
      for (const product of ['Kettle', 'Mug'])
        expect(await activity.getByRole('button', { name: `Click on 'Add to cart' (${product})` }).count(), product).toBe(1);
      const [, mm, ss] = /^(\d\d):(\d\d)/.exec((await teapot.textContent()) ?? '')!;
      const clickedAt = Number(mm) * 60 + Number(ss);
      expect(clickedAt, 'the click came seconds into the visit').toBeGreaterThanOrEqual(3);
      const t = Number(new URL(page.url()).searchParams.get('t'));
      // The link's second is the click's, less one (the two clocks may fall either side of a second).
      expect([clickedAt - 2, clickedAt - 1]).toContain(t);
      const slider = page.getByRole('slider', { name: 'Playback position' });
      await expect.poll(async () => Number(await slider.inputValue()) / 1000).toBeGreaterThanOrEqual(clickedAt - 2);
      expect(Number(await slider.inputValue()) / 1000).toBeLessThan(clickedAt + 1);
    });
    await context.close();

    await step('at 390: the phone heat by default, and the table whole', async () => {
      const phone = await signedInContext(rig.browser, rig.server.url, owner, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const small = await phone.newPage();
      await small.goto(`${rig.server.url}/campaign/${campaignId}/heatmaps?path=%2Fshop`);
      expect(await small.getByRole('combobox', { name: 'Device' }).inputValue()).toBe('mobile');
      const smallRows = small.getByRole('region', { name: 'Most clicked elements' }).getByRole('rowheader');
      await expect.poll(async () => (await smallRows.allTextContents()).length).toBe(4);
      expect(await elementsFit(small, 'Errors')).toEqual({ overflow: 0, columnInside: true });
      await expectAccessible(small, 'heatmaps (shop, 390)', ['.heatmap-page']);
      await phone.close();
    });
  });
});
