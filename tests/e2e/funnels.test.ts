import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import { insertSession } from '../../server/recordings/seed.js';
import { expectAccessible } from './a11y.js';
import { useVisitorRig } from './tracker-site.js';

// A funnel as an owner makes and reads it: three visitors went home → product → cart, home →
// product, and home; the funnel "home → product → cart" shows 3 → 2 → 1, and "dropped off after
// step 2" opens the sessions list with exactly the visitor who stopped at the product.

const visitors = [
  { id: '11111111-1111-4111-8111-111111111111', pages: '/\n/product/mug\n/cart' },
  { id: '22222222-2222-4222-8222-222222222222', pages: '/\n/product/mug' },
  { id: '33333333-3333-4333-8333-333333333333', pages: '/' },
];

describe.skipIf(!hasChromium)('funnels', () => {
  const rig = useVisitorRig({}, { owner: 'Fern Funnel', campaign: true });

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
    await page.getByLabel(/^Pages, in order/).fill('/\n/product/*\n/cart');
    await page.getByRole('button', { name: 'Create funnel' }).click();
    const funnel = page.getByRole('region', { name: 'Home to cart' });
    await funnel.locator('tbody tr').first().waitFor();
    const sessions = funnel.locator('tbody tr td:nth-child(2)');
    expect(await sessions.allInnerTexts()).toEqual(['3', '2', '1']);
    await expectAccessible(page, 'funnels');

    await funnel.getByRole('link', { name: '1 sessions dropped off after step 2' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('outcome')).toBe('dropped');
    expect(new URL(page.url()).pathname).toBe(`/campaign/${rig.campaignId}`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(1);
    expect(await page.getByTestId('session-card').innerText()).toContain(visitors[1].id);
    await context.close();
  });
});
