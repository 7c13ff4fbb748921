import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import { insertSession } from '../../server/recordings/seed.js';
import { expectAccessible } from './a11y.js';
import { openAsOwner, useVisitorRig } from './tracker-site.js';

// The insights dashboard as an owner reads it: its counts are the seeded visits', it passes axe
// at desktop and phone sizes without sideways scrolling, a country's count opens the sessions
// list filtered to that country, and a bucket of the sessions chart (a click on the canvas, or its
// row in "Show as table") opens that hour's or day's sessions.

const visits = [
  { country: ['France', 'FR'], device: 'desktop', browser: 'chrome', bot: false, errors: 0 },
  { country: ['France', 'FR'], device: 'mobile', browser: 'safari', bot: false, errors: 2 },
  { country: ['France', 'FR'], device: 'desktop', browser: 'firefox', bot: false, errors: 0 },
  { country: ['Germany', 'DE'], device: 'desktop', browser: 'chrome', bot: false, errors: 0 },
  { country: ['United States', 'US'], device: 'desktop', browser: 'chrome', bot: true, errors: 0 },
];

describe.skipIf(!hasChromium)('insights dashboard', () => {
  const rig = useVisitorRig({}, { owner: 'Iris Insight', campaign: true });

  beforeAll(async () => {
    const now = Date.now();
    for (const [i, visit] of visits.entries()) {
      await insertSession(rig.server.db, {
        campaign_id: rig.campaignId,
        id: `${i}`.repeat(8) + 'b'.repeat(24),
        started_at: now - (i + 1) * 3_600_000,
        last_activity_at: now - (i + 1) * 3_600_000 + 60_000,
        country: visit.country[0],
        country_code: visit.country[1],
        device: visit.device,
        browser_name: visit.browser,
        is_bot: visit.bot ? 1 : 0,
        bot_reason: visit.bot ? 'webdriver' : null,
        has_human_input: visit.bot ? 0 : 1,
        page_count: 2,
        pages: `/\n/product/mug`,
        exit_url: '/product/mug',
        error_count: visit.errors,
        // The first two came from the newsletter (the tracker reads utm_* of the entry page).
        ...(i < 2 ? { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring-sale' } : {}),
      });
    }
    // The visitor with errors had them with one message (ingest writes these rows; see insights-errors.test.ts).
    const withErrors = visits.findIndex((v) => v.errors > 0);
    await rig.server.db
      .insertInto('session_errors')
      .values({
        campaign_id: rig.campaignId,
        session_id: `${withErrors}`.repeat(8) + 'b'.repeat(24),
        message: 'TypeError: price is undefined',
        count: 2,
        first_at: now - 7_000_000,
        last_at: now - 7_000_000 + 500,
      })
      .execute();
  });

  const open = async (viewport: { width: number; height: number }, isMobile: boolean): Promise<Page> => {
    const page = await openAsOwner(rig, `/campaign/${rig.campaignId}/insights`, viewport, isMobile);
    await page.getByRole('region', { name: 'Countries' }).waitFor();
    return page;
  };

  const stat = (page: Page, label: string) =>
    page
      .locator('.stat')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('.stat-value')
      .innerText();
  const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  it('shows the seeded visits, passes axe at 1280 px, and a country count opens the list filtered to it', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    expect(await stat(page, 'Sessions')).toBe('5');
    expect(await stat(page, 'Human Users')).toBe('4');
    expect(await stat(page, 'Bot Traffic')).toBe('1');
    expect(await stat(page, 'Sessions with errors')).toBe('1');
    const countries = page.getByRole('region', { name: 'Countries' });
    expect(await countries.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/France\s+3$/),
      expect.stringMatching(/Germany\s+1$/),
      expect.stringMatching(/United States\s+1$/),
    ]);
    const pages = page.getByRole('region', { name: 'Top pages' });
    expect(
      await pages
        .getByRole('row', { name: /^\/product\/mug/ })
        .locator('td')
        .first()
        .innerText(),
    ).toBe('5');
    // Each seeded visit loaded /product/mug a minute after / (ingest's trigger times the second page by the row's last activity).
    expect(await pages.getByRole('columnheader').nth(5).innerText()).toBe('Median time on page');
    expect(await pages.getByRole('row', { name: /^\/\s/ }).locator('td').nth(4).innerText()).toBe('1m 0s');
    expect(await page.getByRole('link', { name: 'Insights' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page, 'insights (desktop)');
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);

    const errors = page.getByRole('region', { name: 'JavaScript errors' });
    expect(
      await errors
        .getByRole('row', { name: /^TypeError: price is undefined/ })
        .locator('td')
        .first()
        .innerText(),
    ).toBe('2');

    await countries.getByRole('link', { name: '3 sessions: FR' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('country')).toBe('FR');
    expect(new URL(page.url()).pathname).toBe(`/campaign/${rig.campaignId}`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(3);
    expect(await page.getByRole('link', { name: 'Sessions' }).getAttribute('aria-current')).toBe('page');

    await page.goBack();
    const utm = page.getByRole('region', { name: 'UTM campaigns' });
    expect(await utm.locator('tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/^newsletter\s+email\s+spring-sale\s+2$/)]);
    await utm.getByRole('link', { name: '2 sessions: UTM newsletter / email / spring-sale' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('utm')).toBe('spring-sale');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(2);

    await page.goBack();
    await page.getByRole('link', { name: '1 sessions with the error TypeError: price is undefined' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('error')).toBe('TypeError: price is undefined');
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(1);
    await page.context().close();
  });

  it('a click on a bucket of the sessions chart opens its sessions, as its row in the table does', async () => {
    const page = await open({ width: 1280, height: 800 }, false);
    const chart = page.getByRole('figure', { name: 'Sessions over time' });
    await chart.getByRole('img', { name: /^Sessions per day over \d+ days: 4 humans and 1 bots in all, the most \(\d\) on / }).waitFor();
    expect(await page.getByRole('img', { name: /^Frustration per day over \d+ days: .*2 errors, 0 failed requests in all\./ }).count()).toBe(1);
    await chart.getByText('Show as table').click();
    const rows = chart.locator('tbody tr');
    // The busiest day (the visits were an hour apart over the last five hours, so maybe two days).
    const totals = (await rows.allInnerTexts()).map((text) => text.split(/\s+/).slice(-3, -1).map(Number)).map(([humans, bots]) => humans + bots);
    const busiest = totals.indexOf(Math.max(...totals));
    const rowLink = rows.nth(busiest).getByRole('rowheader').getByRole('link');
    const expected = new URL((await rowLink.getAttribute('href'))!, page.url()).searchParams;
    // uPlot's plot area spans the range, one equal slot a bucket: aim at the busiest one's middle.
    const plot = (await chart.locator('.u-over').boundingBox())!;
    const x = plot.x + ((busiest + 0.5) / totals.length) * plot.width;
    await page.mouse.move(x, plot.y + plot.height - 2);
    await expect.poll(() => chart.locator('.insights-readout').innerText()).toBe(await rowLink.getAttribute('aria-label'));
    await page.mouse.click(x, plot.y + plot.height - 2);
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(expected.get('from'));
    expect(new URL(page.url()).searchParams.get('to')).toBe(expected.get('to'));
    expect(new URL(page.url()).pathname).toBe(`/campaign/${rig.campaignId}`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(totals[busiest]);

    await page.goBack();
    await chart.getByText('Show as table').click();
    await rows.nth(busiest).getByRole('rowheader').getByRole('link').click();
    await expect.poll(() => new URL(page.url()).search).toBe(`?${expected}`);
    await expect.poll(() => page.getByTestId('session-card').count()).toBe(totals[busiest]);
    await page.context().close();
  });

  it('passes axe at 390 px without sideways scrolling, the chart as wide as its card and readable as a table', async () => {
    const page = await open({ width: 390, height: 844 }, true);
    expect(await stat(page, 'Sessions')).toBe('5');
    const chart = page.getByRole('figure', { name: 'Sessions over time' });
    // The canvas fills the card's width but for its padding (1 rem each side).
    const canvasWidth = async () => (await chart.locator('canvas').boundingBox())!.width;
    const cardWidth = async () => (await chart.boundingBox())!.width;
    const fillsCard = async () => (await cardWidth()) - (await canvasWidth());
    await expect.poll(fillsCard).toBeGreaterThan(0);
    expect(await fillsCard()).toBeLessThanOrEqual(40);
    await page.getByText('Show as table').click();
    expect(await page.locator('.insights-chart tbody tr').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'insights (phone)');
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    // Turned sideways, the chart follows its card.
    const phoneWidth = await canvasWidth();
    await page.setViewportSize({ width: 844, height: 390 });
    await expect.poll(canvasWidth).toBeGreaterThan(phoneWidth + 300);
    expect(await fillsCard()).toBeLessThanOrEqual(40);
    await page.context().close();
  });
});
