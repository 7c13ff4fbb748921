import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { Heatmap, HeatmapClicks } from '../../common/api/heatmaps.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { step, until } from './step.js';
import { expectAccessible } from './a11y.js';

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

describe.skipIf(!hasChromium)('heatmaps', () => {
  const rig = useVisitorRig({ '/product': product }, { tracker: 'with app' });

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
      await page.getByLabel('Has dead clicks').check();
      await expect.poll(() => canvas.getAttribute('data-drawn-at')).not.toBe(drawnAt);
      expect(await page.locator('.heatmap-page iframe').getAttribute('data-kept')).toBe('yes');
      await page.getByLabel('Has dead clicks').uncheck();
      await expect.poll(() => page.url()).not.toContain('hasDeadClicks');
      // The tablet visitor dead-clicked but never rage-clicked.
      await page.getByLabel('Has rage clicks').check();
      await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('0 clicks from 0 sessions');
      expect(page.url()).toContain('hasRageClicks=true');
      await page.getByLabel('Has rage clicks').uncheck();
      await page.getByLabel('Has dead clicks').check();
      await expect.poll(() => page.getByTestId('heatmap-summary').textContent()).toBe('3 clicks from 1 session');
      const sessions = page.getByRole('group', { name: 'Session filters' }).getByRole('link', { name: 'Sessions' });
      const href = new URL((await sessions.getAttribute('href')) ?? '', rig.server.url);
      expect(Object.fromEntries(href.searchParams)).toMatchObject({ hasDeadClicks: 'true', device: 'tablet', url: '/product' });
    });
    await context.close();
  });
});
