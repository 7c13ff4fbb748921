import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { NewSession } from '../../server/sessions/rows.js';
import { expectAccessible } from './a11y.js';
import { openAsOwner, useVisitorRig } from './tracker-site.js';

// Every number on the insights screen opens its sessions: a country's row, an OS's row, a kind of
// frustration, a card's figure, a screen, a referrer, an unknown OS, a page's entries each open the sessions list
// narrowed to exactly that many sessions, with a chip naming the filter. The cards are one width
// at 1280 and 390 px. With INSIGHTS_SCREENSHOTS=1 the screen is saved to docs/screenshots.

const screenshots = process.env.INSIGHTS_SCREENSHOTS === '1';

type Visit = [country: string, device: string, browser: string, os: string, screen: [number, number], referrer: string | null, facts: Partial<NewSession>];
const visits: Visit[] = [
  ['DE', 'desktop', 'chrome', 'Windows 10', [1920, 1080], 'https://www.google.com/', { rage_click_count: 1, pages: '/\n/kettles\n/cart' }],
  ['DE', 'desktop', 'firefox', 'Windows 10', [1920, 1080], null, { dead_click_count: 1, pages: '/\n/kettles' }],
  ['FR', 'mobile', 'safari', 'iOS 17', [390, 844], 'https://www.google.com/', { rage_click_count: 2, error_count: 1, pages: '/kettles\n/cart' }],
  ['FR', 'desktop', 'chrome', 'macOS 14', [1440, 900], null, { pages: '/' }],
  ['US', 'desktop', 'chrome', 'Windows 10', [1920, 1080], null, { is_bot: 1, bot_reason: 'webdriver', has_human_input: 0, pages: '/' }],
  ['DE', 'tablet', 'chrome', 'Android 14', [800, 1280], 'https://news.example/teas', { quick_back_count: 1, pages: '/\n/teas' }],
  ['GB', 'mobile', 'chrome', 'iOS 17', [390, 844], null, { failed_request_count: 1, pages: '/teas\n/cart' }],
];
const NAMES: Record<string, string> = { DE: 'Germany', FR: 'France', US: 'United States', GB: 'United Kingdom' };

describe.skipIf(!hasChromium)('insights links', () => {
  const rig = useVisitorRig({}, { owner: 'Lina Links', campaign: true });

  beforeAll(async () => {
    const now = Date.now();
    for (const [i, [country, device, browser, os, screen, referrer, facts]] of visits.entries()) {
      const pages = facts.pages ?? '/';
      await insertSession(rig.server.db, {
        ...{ campaign_id: rig.campaignId, id: `${i}`.repeat(8) + 'c'.repeat(24) },
        ...{ started_at: now - (i + 1) * 3_600_000, last_activity_at: now - (i + 1) * 3_600_000 + 60_000, has_human_input: 1 },
        ...{ country: NAMES[country], country_code: country, device, browser_name: browser, os, screen_width: screen[0], screen_height: screen[1] },
        ...{ referrer, page_count: pages.split('\n').length, exit_url: pages.split('\n').at(-1) },
        ...facts,
      });
    }
    // A visit nothing is known of (no user agent, country or screen): the "Unknown" rows.
    await insertSession(rig.server.db, {
      campaign_id: rig.campaignId,
      id: '9'.repeat(8) + 'c'.repeat(24),
      started_at: now - 9 * 3_600_000,
      has_human_input: 1,
    });
  });
  const total = visits.length + 1;

  const open = async (viewport: { width: number; height: number }, isMobile: boolean): Promise<Page> => {
    const page = await openAsOwner(rig, `/campaign/${rig.campaignId}/insights`, viewport, isMobile);
    await page.getByRole('region', { name: 'Countries' }).waitFor();
    return page;
  };

  /** Follows a figure's link (clicked, or with Enter) and checks the list it opens: that many sessions, and the chip. */
  async function opens(page: Page, link: ReturnType<Page['getByRole']>, chip: string | null, how: 'click' | 'keyboard' = 'click'): Promise<number> {
    const count = Number(await link.innerText());
    expect(count).toBeGreaterThan(0);
    expect(await link.evaluate((a) => a.tagName)).toBe('A');
    if (how === 'keyboard') {
      await link.focus();
      await page.keyboard.press('Enter');
    } else await link.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/campaign/${rig.campaignId}`);
    await expect.poll(() => page.getByTestId('session-count').innerText()).toBe(`${count} of ${total} sessions`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(count);
    // The type is the list's select, not a chip.
    if (chip) expect(await page.getByRole('list', { name: 'Active filters' }).locator('.filter-chip > span').allInnerTexts()).toContain(chip);
    else expect(await page.getByLabel('Session type').inputValue()).toBe('bot');
    await page.goBack();
    await page.getByRole('region', { name: 'Countries' }).waitFor();
    return count;
  }

  it('a country, an OS, a kind of frustration, a card, a screen, a referrer and a page open exactly their sessions', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    // Every card's figure is a link.
    expect(await page.locator('.insights-stats .stat-value > a').count()).toBe(8);
    const region = (name: string) => page.getByRole('region', { name });
    const link = (where: ReturnType<Page['getByRole']>, name: string) => where.getByRole('link', { name, exact: true });
    expect(await opens(page, link(region('Countries'), '3 sessions: DE'), 'Country: DE')).toBe(3);
    expect(await opens(page, link(region('Operating systems'), '3 sessions: Windows 10'), 'OS: Windows 10', 'keyboard')).toBe(3);
    expect(await opens(page, link(region('Frustration'), '2 sessions with rage clicks'), 'Has rage clicks')).toBe(2);
    expect(await opens(page, link(region('Frustration'), '1 sessions with failed requests'), 'Has failed requests')).toBe(1);
    expect(await opens(page, link(page.getByLabel('Totals'), '4 sessions with frustration'), 'Has frustration')).toBe(4);
    expect(await opens(page, link(page.getByLabel('Totals'), '1 bot sessions'), null)).toBe(1);
    expect(await opens(page, link(region('Screens'), '2 sessions: 390×844'), 'Screen: 390×844')).toBe(2);
    expect(await opens(page, link(region('Referrers'), '5 sessions: (direct)'), 'Referrer: (direct)')).toBe(5);
    expect(await opens(page, link(region('Operating systems'), '1 sessions: Unknown'), 'Unknown: OS')).toBe(1);
    expect(await opens(page, link(region('Top pages'), '1 sessions that entered on: /kettles'), 'Entry page: /kettles')).toBe(1);
    expect(await opens(page, link(region('Top pages'), '3 sessions that viewed: /kettles'), 'Viewed page: /kettles')).toBe(3);
    await page.context().close();
  });

  /** The widths of the cards stacked in the page (the stats grid and the two-column grid aside). */
  const cardWidths = (page: Page) =>
    page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.insights-page > .card')].map((card) => Math.round(card.getBoundingClientRect().width)));

  it.each([
    [1280, 800, false],
    [390, 844, true],
  ])('at %i px the cards are one width (the sessions chart too) and pass axe', async (width, height, isMobile) => {
    const page = await open({ width, height }, isMobile);
    await page.getByRole('figure', { name: 'Sessions over time' }).locator('canvas').waitFor();
    const widths = await cardWidths(page);
    expect(widths.length).toBeGreaterThanOrEqual(4);
    expect(new Set(widths).size, widths.join(', ')).toBe(1);
    await expectAccessible(page, `insights links (${width})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    if (screenshots) await page.screenshot({ path: `docs/screenshots/insights-${width}.png`, fullPage: true });
    await page.context().close();
  });
});
