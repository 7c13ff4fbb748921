import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import { insertSession } from '../../server/recordings/seed.js';
import { expectAccessible } from './a11y.js';
import { openAsOwner, useVisitorRig } from './tracker-site.js';

// The people directory as an owner uses it: the People tab lists who the site identified, with
// when first and last seen, how many sessions, on which devices and their traits; the search
// finds them by the start of their id and by a trait; a person opens on their page, their sessions
// titled as the sessions list titles them. With PEOPLE_SCREENSHOTS=1 the directory is saved to
// docs/screenshots/people-{1280,390}.png.

const screenshots = process.env.PEOPLE_SCREENSHOTS === '1';
const HOUR = 3_600_000;

describe.skipIf(!hasChromium)('people directory', () => {
  const rig = useVisitorRig({}, { owner: 'Petra People', campaign: true });
  const now = Date.now();

  beforeAll(async () => {
    const visits: [string | null, string, Record<string, unknown> | null, number][] = [
      ['cust-001', 'desktop', { plan: 'pro', company: 'Kettle & Co' }, 50],
      ['cust-001', 'mobile', { plan: 'pro', company: 'Kettle & Co', seats: 12 }, 3],
      ['cust-002', 'mobile', { plan: 'free' }, 20],
      ['ana@example.com', 'tablet', { plan: 'team', role: 'buyer' }, 8],
      [null, 'desktop', null, 1],
    ];
    for (const [i, [userId, device, traits, hoursAgo]] of visits.entries()) {
      const started = now - hoursAgo * HOUR;
      await insertSession(rig.server.db, {
        campaign_id: rig.campaignId,
        id: `${i}`.repeat(8) + 'b'.repeat(24),
        started_at: started,
        last_activity_at: started + 140_000,
        duration_ms: 140_000,
        device,
        country: 'France',
        country_code: 'FR',
        has_human_input: 1,
        entry_url: 'https://shop.example.com/product/kettle',
        pages: ['/product/kettle', '/cart', '/checkout'].join('\n'),
        exit_url: '/checkout',
        page_count: 3,
        event_count: 180 + i,
        click_count: 7,
        user_id: userId,
        traits: traits && JSON.stringify(traits),
        events: JSON.stringify({ add_to_cart: 2, checkout: 1 }),
      });
    }
  });

  const lines = (page: Page) => page.getByRole('list', { name: 'People' }).getByTestId('person-line');
  const ids = (page: Page) => lines(page).getByRole('heading').allTextContents();

  it('opens from the campaign, finds people by id prefix and by trait, and opens a person', async () => {
    const page = await openAsOwner(rig, `/campaign/${rig.campaignId}`, { width: 1280, height: 800 }, false);
    await page.getByRole('navigation', { name: 'Campaign views' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    await expect.poll(() => ids(page)).toEqual(['ana@example.com', 'cust-001', 'cust-002']);
    const customer = lines(page).filter({ hasText: 'cust-001' });
    const facts = (await customer.getByRole('definition').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(facts).toEqual([expect.stringMatching(/\d/), expect.stringMatching(/\d/), '2 sessions', 'desktop mobile']);
    // Their newest session's traits.
    expect(await customer.getByRole('list', { name: 'Traits' }).getByRole('listitem').allTextContents()).toEqual([
      'plan=pro',
      'company=Kettle & Co',
      'seats=12',
    ]);
    await expectAccessible(page, 'the people directory');
    if (screenshots) await page.screenshot({ path: 'docs/screenshots/people-1280.png', fullPage: true });

    const search = page.getByRole('searchbox', { name: 'Search people' });
    await search.fill('cust-00');
    await expect.poll(() => ids(page)).toEqual(['cust-001', 'cust-002']);
    await expect.poll(() => page.url()).toContain('q=cust-00');
    await search.fill('plan=PRO');
    await expect.poll(() => ids(page)).toEqual(['cust-001']);
    await search.fill('buyer');
    await expect.poll(() => ids(page)).toEqual(['ana@example.com']);
    await search.fill('nobody');
    await page.getByRole('heading', { name: 'No people found' }).waitFor();
    await search.fill('plan=pro');
    await expect.poll(() => ids(page)).toEqual(['cust-001']);

    await lines(page).getByRole('link', { name: 'cust-001' }).click();
    await page.waitForURL('**/person/cust-001');
    const cards = page.getByTestId('session-card');
    await expect.poll(() => cards.count()).toBe(2);
    // Titled as the list titles them: who, where they went, what they did.
    expect(await cards.getByTestId('session-user').allTextContents()).toEqual(['cust-001', 'cust-001']);
    expect(await cards.first().locator('.session-where').textContent()).toBe('/product/kettle → /checkout · 3 pages');
    expect(await cards.first().locator('.session-what').textContent()).toContain('checkout');
    expect(await page.getByRole('definition').first().textContent()).toMatch(/\d/);
    await expectAccessible(page, 'a person');
    await page.context().close();
  });

  it('fits a phone: every person readable without sideways scrolling', async () => {
    const page = await openAsOwner(rig, `/campaign/${rig.campaignId}/people`, { width: 390, height: 844 }, true);
    await expect.poll(() => ids(page)).toEqual(['ana@example.com', 'cust-001', 'cust-002']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page, 'the people directory on a phone');
    if (screenshots) await page.screenshot({ path: 'docs/screenshots/people-390.png', fullPage: true });
    await page.context().close();
  });
});
