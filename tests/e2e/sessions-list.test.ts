import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import { insertSession } from '../../server/recordings/seed.js';
import { expectAccessible } from './a11y.js';
import { openAsOwner, useVisitorRig } from './tracker-site.js';

// The sessions list as an owner scans it: on a phone the first session's "Watch Replay" is on
// the first screen (compact cards, filters folded behind "Filters (n)"); every filter applies as
// you type; a list view on desktop (sessions-first.test.ts: its table). With SESSIONS_SCREENSHOTS=1
// the cards with the filters open at 1280 are saved to docs/screenshots/sessions-cards-1280.png and
// the list view to sessions-list-1280.png (the first screens: sessions-first.test.ts).

const screenshots = process.env.SESSIONS_SCREENSHOTS === '1';

describe.skipIf(!hasChromium)('sessions list', () => {
  const rig = useVisitorRig({}, { owner: 'Lena Lister', campaign: true });

  beforeAll(async () => {
    const now = Date.now();
    for (let i = 0; i < 4; i++) {
      await insertSession(rig.server.db, {
        campaign_id: rig.campaignId,
        id: `${i}`.repeat(8) + 'a'.repeat(24),
        started_at: now - (i + 1) * 600_000,
        last_activity_at: now - (i + 1) * 600_000 + 95_000,
        remote_ip: `203.0.113.${i + 1}`,
        country: 'France',
        country_code: 'FR',
        language: 'fr-FR',
        timezone: 'Europe/Paris',
        hardware_concurrency: 8,
        cookies_enabled: 1,
        has_focus: 1,
        user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
        has_human_input: 1,
        entry_url: `https://shop.example.com/${i % 2 ? 'checkout' : 'product/mug'}`,
        page_count: 3,
        pages: ['/', i % 2 ? '/checkout' : '/product/mug', '/about'].join('\n'),
        browser: 'Safari 17.0',
        browser_name: 'safari',
        os: 'iOS 17.0',
        device: 'mobile',
        duration_ms: 95_000,
        // Who, where and what the cards are titled by: two identified shoppers, two anonymous visitors.
        user_id: i % 2 ? `cust-00${i}` : null,
        exit_url: '/about',
        event_count: 240 + i * 31,
        click_count: 6 + i,
        events: JSON.stringify(i % 2 ? { add_to_cart: 2, checkout: 1 } : { add_to_cart: 1 }),
      });
    }
  });

  const open = async (viewport: { width: number; height: number }, isMobile: boolean) => {
    const page = await openAsOwner(rig, `/campaign/${rig.campaignId}`, viewport, isMobile);
    await page.getByTestId('session-card').first().waitFor();
    return page;
  };

  const filtersButton = (page: Page) => page.getByRole('button', { name: /^Filters \(\d+\)$/ });

  it('on a phone: the first Watch Replay is on the first screen, filters fold behind "Filters (n)" and apply as you type', async () => {
    const page = await open({ width: 390, height: 844 }, true);
    const watch = page.getByTestId('session-card').first().getByRole('link', { name: 'Watch Replay' });
    const box = (await watch.boundingBox())!;
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(box.y + box.height, 'the first Watch Replay is below the first screen').toBeLessThanOrEqual(844);

    // Folded: one control, no filter fields in sight.
    await expect.poll(() => filtersButton(page).getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByLabel('Visited page').isVisible()).toBe(false);
    await expectAccessible(page, 'sessions list (phone)');

    // Unfolded, typing applies by itself (no Enter, no blur): the URL and the count follow.
    await filtersButton(page).click();
    expect(await filtersButton(page).getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Visited page').pressSequentially('checkout');
    await expect.poll(() => new URL(page.url()).searchParams.get('url')).toBe('checkout');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(2);
    await page.getByRole('button', { name: 'Filters (1)' }).waitFor();
    await page.context().close();
  });

  it('every text filter applies while typing, like the checkboxes and selects', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    // Folded at every width: one click unfolds them.
    expect(await filtersButton(page).getAttribute('aria-expanded')).toBe('false');
    await filtersButton(page).click();
    await page.getByLabel('Browser', { exact: true }).pressSequentially('Safari');
    await expect.poll(() => new URL(page.url()).searchParams.get('browser')).toBe('Safari');
    await page.getByLabel('Country').pressSequentially('fr');
    await expect.poll(() => new URL(page.url()).searchParams.get('country')).toBe('FR');
    await page.getByLabel('Min duration (s)').pressSequentially('60');
    await expect.poll(() => new URL(page.url()).searchParams.get('minDuration')).toBe('60000');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(4);
    if (screenshots) {
      await page.getByTestId('session-card').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: 'docs/screenshots/sessions-cards-1280.png' });
    }
    await page.getByLabel('Max duration (s)').pressSequentially('10');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(0);
    await page.getByText('No sessions found').waitFor();
    await page.context().close();
  });

  it('keeps the search and the type in the URL: a reload opens the same list, the defaults stay out of it, a bad link opens the full list', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    const search = page.getByLabel('Search sessions');
    const param = (name: string) => new URL(page.url()).searchParams.get(name);
    await search.pressSequentially('203.0.113.2');
    await expect.poll(() => param('q')).toBe('203.0.113.2');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(1);
    await page.getByLabel('Session type').selectOption('bot');
    await expect.poll(() => param('type')).toBe('bot');
    await page.getByText('No sessions found').waitFor();
    await page.reload();
    await page.getByText('No sessions found').waitFor();
    expect([await search.inputValue(), await page.getByLabel('Session type').inputValue()]).toEqual(['203.0.113.2', 'bot']);
    await page.getByLabel('Session type').selectOption('all');
    await search.fill('');
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(4);
    // Values the list does not have (an object where text goes, too) are dropped, never a crash.
    await page.goto(`${new URL(page.url()).origin}/campaign/${rig.campaignId}?type=robot&sort=sideways&funnel=spring&q=%7B%7D&junk=1`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(4);
    expect([await search.inputValue(), await page.getByLabel('Session type').inputValue()]).toEqual(['', 'all']);
    await page.context().close();
  });

  it('on desktop: a list view, kept across visits, with Watch Replay and View Details on each row', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    await page.getByRole('button', { name: 'List view' }).click();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(4);
    expect(await page.getByTestId('session-card').count()).toBe(0);
    const row = page.getByTestId('session-row').first();
    await row.getByRole('link', { name: 'Watch Replay' }).waitFor();
    await row.getByRole('button', { name: 'View Details' }).click();
    await page.getByRole('dialog').getByText('203.0.113.1').waitFor();
    await page.keyboard.press('Escape');
    // Dense: each row is lower than a card.
    const height = (await row.boundingBox())!.height;
    expect(height).toBeLessThan((await page.getByRole('table').boundingBox())!.height / 3);
    if (screenshots) await page.screenshot({ path: 'docs/screenshots/sessions-list-1280.png' });
    await expectAccessible(page, 'sessions list view (desktop)');

    await page.reload();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(4);
    await page.getByRole('button', { name: 'Card view' }).click();
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(4);
    await page.context().close();
  });
});
