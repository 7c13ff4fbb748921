import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import type { SessionsResponse } from '../../common/api-types.js';
import type { Heatmap } from '../../common/api/heatmaps.js';
import { ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { until } from './step.js';

// Dead clicks as a visitor means them, against scripted ground truth: two broken buttons (one
// with no handler, one whose handler does nothing), a broken link, a working button, a text
// field and a link that leaves. Chromium focuses buttons and links on mousedown, as it does a
// field; only the field's clicks are spared. Each visit ends by leaving the page, and its last
// click is judged then.

const shop = (tag: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>${tag}</head><body>
<h1>Kettle</h1>
<p id="cart">Cart: 0</p>
<button id="pay" type="button">Pay</button>
<button id="remind" type="button">Remind me</button>
<a id="offers" href="#offers">Offers</a>
<button id="add" type="button">Add to cart</button>
<label>Email <input id="email" type="email"></label>
<a id="leave" href="/bye">Leave</a>
<script>
  document.getElementById('remind').addEventListener('click', function () {});
  var n = 0;
  document.getElementById('add').addEventListener('click', function () { document.getElementById('cart').textContent = 'Cart: ' + (++n); });
</script></body></html>`;

// Outside the campaign's pages: no tracker, so only the page going away answers the click that led here.
const bye = () => '<!doctype html><html><head><title>Bye</title></head><body>Bye</body></html>';

/** Longer than the dead-click second, so one element's answer never answers another's click. */
const PAST_THE_SECOND_MS = 1300;

describe.skipIf(!hasChromium)('dead clicks', () => {
  const rig = useVisitorRig({ '/shop': shop, '/bye': bye }, { tracker: 'alone' });

  /** One visitor at 1280×800: `act` on the shop page, then the tab closes (its unload handlers run). */
  async function visit(act: (tab: Page) => Promise<void>): Promise<void> {
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = await context.newPage();
    await tab.goto(`${rig.site.url}/shop`);
    await recorderRunning(tab);
    await act(tab);
    if (!tab.isClosed()) await tab.close({ runBeforeUnload: true });
    await context.close();
  }

  /** A click, then more than a second of nothing from the page. */
  async function clickAndWait(tab: Page, selector: string): Promise<void> {
    await tab.click(selector);
    await tab.waitForTimeout(PAST_THE_SECOND_MS);
  }

  it('counts clicks on broken buttons and links, never working ones, fields or a click that leaves', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Dead Click Owner');
    const sessions = async (query = '') => {
      const response = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/?${query}`, { headers: owner.headers });
      return ((await response.json()) as SessionsResponse).sessions;
    };

    // 4 dead: both broken buttons twice, the last of them right before the tab closes.
    await visit(async (tab) => {
      for (const selector of ['#pay', '#remind', '#add', '#email']) await clickAndWait(tab, selector);
      await tab.keyboard.type('jo@example.com');
      for (const selector of ['#pay', '#remind']) await clickAndWait(tab, selector);
    });
    // 1 dead: the broken link; the link that leaves is answered by leaving.
    await visit(async (tab) => {
      await clickAndWait(tab, '#offers');
      await Promise.all([tab.waitForURL(`${rig.site.url}/bye`), tab.click('#leave')]);
    });
    // None: a working button and a field typed into, the tab closed right after typing.
    await visit(async (tab) => {
      await clickAndWait(tab, '#add');
      await tab.click('#email');
      await tab.keyboard.type('ann@example.com');
    });

    const truth = [0, 1, 4];
    const listed = await until('the three visits to be judged', async () => {
      const all = await sessions();
      return all.length === 3 && all.every((s) => s.clickCount >= 2) && all.reduce((n, s) => n + s.deadClickCount, 0) >= 5 && all;
    });
    expect(listed.map((s) => s.deadClickCount).sort()).toEqual(truth);
    expect(listed.map((s) => s.clickCount).sort()).toEqual([2, 2, 6]);
    const dead = listed.filter((s) => s.deadClickCount > 0).map((s) => s.sessionId);
    expect((await sessions('hasDeadClicks=true')).map((s) => s.sessionId).sort()).toEqual(dead.sort());

    const response = await fetch(`${rig.server.url}/api/v1/heatmaps/${campaignId}?path=/shop&device=desktop`, { headers: owner.headers });
    const heatmap = (await response.json()) as Heatmap;
    expect(heatmap).toMatchObject({ sessions: 3, clicks: 10, deadClicks: 5, layerSessions: { dead: 2 } });
    const byElement = Object.fromEntries(heatmap.elements.map((e) => [e.selector, [e.clicks, e.deadClicks]]));
    expect(byElement).toEqual({ '#pay': [2, 2], '#remind': [2, 2], '#offers': [1, 1], '#add': [2, 0], '#email': [2, 0], '#leave': [1, 0] });
  });
});
