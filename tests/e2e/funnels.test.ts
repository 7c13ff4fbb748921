import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import { insertSession } from '../../server/recordings/seed.js';
import { makeCampaign } from '../integration/ingest-support.js';
import { expectAccessible } from './a11y.js';
import { flushRecorder, recorderRunning, useVisitorRig } from './tracker-site.js';
import { step, until } from './step.js';

// A funnel as an owner makes and reads it: three visitors went home → product → cart, home →
// product, and home; the funnel "home → product → cart" shows 3 → 2 → 1, and "dropped off after
// step 2" opens the sessions list with exactly the visitor who stopped at the product. Then, through
// the real tracker, a shop page whose "Add to cart" button and "Check out" button (which sends the
// custom event "checkout") three visitors use in part: "shop → click Add to cart → event checkout".

const shop = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>${loader}</head><body>
<h1>Leaf mug</h1>
<button id="add" type="button">Add to cart</button>
<button id="checkout" type="button" onclick="tapedeck.event('checkout')">Check out</button>
</body></html>`;

const visitors = [
  { id: '11111111-1111-4111-8111-111111111111', pages: '/\n/product/mug\n/cart' },
  { id: '22222222-2222-4222-8222-222222222222', pages: '/\n/product/mug' },
  { id: '33333333-3333-4333-8333-333333333333', pages: '/' },
];

describe.skipIf(!hasChromium)('funnels', () => {
  const rig = useVisitorRig({ '/shop': shop }, { owner: 'Fern Funnel', campaign: true });

  beforeAll(async () => {
    const now = Date.now();
    for (const [i, visitor] of visitors.entries()) {
      const start = now - (i + 1) * 3_600_000;
      await insertSession(rig.server.db, {
        campaign_id: rig.campaignId,
        id: visitor.id,
        started_at: start,
        last_activity_at: start + 60_000,
        has_human_input: 1,
        pages: visitor.pages,
        page_count: visitor.pages.split('\n').length,
      });
    }
  });

  it('shows home → product → cart as 3 → 2 → 1, and the visitor who dropped off after step 2', async () => {
    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, rig.owner, {
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    await page.goto(`${rig.server.config.publicUrl}/campaign/${rig.campaignId}/insights`);
    await page.getByRole('link', { name: 'Funnels' }).click();
    await page.getByRole('form', { name: 'New funnel' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/campaign/${rig.campaignId}/funnels`);
    await page.getByLabel('Name', { exact: true }).fill('Home to cart');
    await page.getByLabel('Steps, in order').fill('/\n/product/*\n/cart');
    await page.getByRole('button', { name: 'Create funnel' }).click();
    const funnel = page.getByRole('region', { name: 'Home to cart' });
    await funnel.locator('tbody tr').first().waitFor();
    const sessions = funnel.locator('tbody tr td:nth-child(2)');
    expect(await sessions.allInnerTexts()).toEqual(['3', '2', '1']);
    await expectAccessible(page, 'funnels');

    // On a phone: the page never scrolls sideways (the table scrolls in its card), and the form's
    // fields stack with room to type the steps.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const stepsBox = await page.getByLabel('Steps, in order').boundingBox();
    const nameBox = await page.getByLabel('Name', { exact: true }).boundingBox();
    expect(stepsBox!.height).toBeGreaterThan(80);
    expect(stepsBox!.y).toBeGreaterThan(nameBox!.y + nameBox!.height);
    await expectAccessible(page, 'funnels (390 px)');
    await page.setViewportSize({ width: 1280, height: 800 });

    await funnel.getByRole('link', { name: '1 sessions dropped off after step 2' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('outcome')).toBe('dropped');
    expect(new URL(page.url()).pathname).toBe(`/campaign/${rig.campaignId}`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(1);
    expect(await page.getByTestId('session-card').textContent()).toContain(visitors[1].id);

    // Drawn as bars, each as long as its share of the first step's sessions.
    await page.goBack();
    const bars = funnel.getByRole('list', { name: 'Sessions at each step' }).getByRole('listitem');
    await bars.first().waitFor();
    expect(await bars.allTextContents()).toEqual([
      '1. /3 sessions · 100%',
      '2. /product/*2 sessions · 66.7% · 1 dropped off',
      '3. /cart1 session · 33.3% · 1 dropped off',
    ]);
    const shares = await funnel
      .locator('.funnel-bar-fill')
      .evaluateAll((fills) => fills.map((fill) => Math.round((100 * fill.getBoundingClientRect().width) / fill.parentElement!.getBoundingClientRect().width)));
    expect(shares).toEqual([100, 67, 33]);

    // Edited: its fields hold the funnel as it is; saved, the card counts the new steps.
    await funnel.getByRole('button', { name: 'Edit funnel' }).click();
    const edit = page.getByRole('form', { name: 'Edit Home to cart' });
    expect(await edit.getByLabel('Steps, in order').inputValue()).toBe('/\n/product/*\n/cart');
    await edit.getByLabel('Name', { exact: true }).fill('Home to product');
    await edit.getByLabel('Steps, in order').fill('/\n/product/*');
    await edit.getByRole('button', { name: 'Save funnel' }).click();
    const edited = page.getByRole('region', { name: 'Home to product' });
    await expect.poll(() => edited.locator('tbody tr td:nth-child(2)').allInnerTexts()).toEqual(['3', '2']);
    expect(await page.getByRole('region', { name: 'Home to cart' }).count()).toBe(0);
    await expectAccessible(page, 'funnels, edited');
    await context.close();
  });

  it('counts shop → click "Add to cart" → event checkout as the tracker recorded them: 3 → 2 → 1', async () => {
    const campaignId = await makeCampaign(rig.server, { ownerId: rig.owner.userId, domains: `127.0.0.1:${rig.site.port}` });
    rig.site.install(`<script async src="${rig.server.url}/t/${campaignId}.js"></script>`);
    const visits = async (kind: 'click' | 'event') => {
      await rig.server.app.ctx.afterStored.flushFor(campaignId, 'visits');
      const rows = await rig.server.db.selectFrom('session_visits').select('value').where('campaign_id', '=', campaignId).where('kind', '=', kind).execute();
      return rows.length;
    };
    await step('three visitors', async () => {
      for (const buttons of [['#add', '#checkout'], ['#add'], []]) {
        const context = await rig.browser.newContext({ viewport: { width: 1280, height: 800 } });
        const tab = await context.newPage();
        await tab.goto(`${rig.site.url}/shop`);
        await recorderRunning(tab);
        await tab.mouse.move(20, 20);
        for (const button of buttons) await tab.click(button);
        await flushRecorder(tab);
        await context.close();
      }
      // 3 clicks on buttons (the second visitor's one), 1 checkout event.
      await until('the visits to be stored', async () => (await visits('click')) === 3 && (await visits('event')) === 1);
    });

    await step('the owner makes the funnel', async () => {
      const context = await signedInContext(rig.browser, rig.server.config.publicUrl, rig.owner, {
        viewport: { width: 1280, height: 800 },
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      await page.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}/funnels`);
      await page.getByLabel('Name', { exact: true }).fill('Add and check out');
      await page.getByLabel('Steps, in order').fill('/shop\nclick: Add to cart\nevent: checkout');
      await page.getByRole('button', { name: 'Create funnel' }).click();
      const funnel = page.getByRole('region', { name: 'Add and check out' });
      await funnel.locator('tbody tr').first().waitFor();
      expect(await funnel.locator('tbody tr th').allInnerTexts()).toEqual(['1. /shop', '2. click: Add to cart', '3. event: checkout']);
      expect(await funnel.locator('tbody tr td:nth-child(2)').allInnerTexts()).toEqual(['3', '2', '1']);
      await expectAccessible(page, 'funnels with click and event steps');
      await funnel.getByRole('link', { name: '1 sessions dropped off after step 2' }).click();
      await expect.poll(() => page.getByTestId('session-card').count()).toBe(1);
      await context.close();
    });
  });
});
