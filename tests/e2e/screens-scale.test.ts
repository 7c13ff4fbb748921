import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { signIn } from '../helpers/signin.js';
import { insertSession } from '../../server/recordings/seed.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../server/auth/tokens.js';
import type { Campaign } from '../../common/api-types.js';

// The sessions page on a campaign bigger than one page: the list pages on the server (cursor,
// search, type) and the counters are the server's, not a count of the cards loaded.

const TOTAL = 120;
const BOTS = 30;
const PAGE = 50;

describe.skipIf(!hasChromium)('sessions page at scale', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({}, { privateDist: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('pages, filters and searches on the server with the counts of the whole campaign', async () => {
    const owner = await signIn(server, { name: 'Grace Pager', email: 'grace.pager@example.test' });
    const origin = server.config.publicUrl;
    const created = await fetch(`${server.url}/api/v1/campaign/create`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Big', domains: 'big.example.com', limit: 0, start_date_time: Date.now() - 1000, end_date_time: Date.now() + 86_400_000 }),
    });
    expect(created.status).toBe(201);
    const campaign = ((await created.json()) as { data: Campaign }).data;
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < TOTAL; i++) {
      const bot = i < BOTS;
      await insertSession(server.db, {
        campaign_id: campaign.id,
        id: `sess${String(i).padStart(4, '0')}abcdef`,
        started_at: start + i * 1000,
        remote_ip: `198.51.100.${i % 250}`,
        language: i === 77 ? 'ja-JP' : 'en-US',
        webdriver: bot ? 1 : 0,
        is_bot: bot ? 1 : 0,
        // A human visitor moved, touched or typed: without that an ended session counts as a bot.
        has_human_input: bot ? 0 : 1,
      });
    }

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    await context.addCookies([
      { name: ACCESS_COOKIE, value: owner.jar.get(ACCESS_COOKIE)!, url: origin },
      { name: REFRESH_COOKIE, value: owner.jar.get(REFRESH_COOKIE)!, domain: new URL(origin).hostname, path: '/api/v1/auth' },
    ]);
    const page = await context.newPage();
    const sessionCalls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/v1/streaming/sessions/')) sessionCalls.push(url);
    });
    await page.goto(`${origin}/campaign/${campaign.id}`);
    const cards = page.getByTestId('session-card');
    await cards.nth(PAGE - 1).waitFor();
    const counter = (label: string) => page.locator('.stat', { hasText: label }).locator('.stat-value').textContent();
    expect(await counter('Total Sessions')).toBe(String(TOTAL));
    expect(await counter('Human Users')).toBe(String(TOTAL - BOTS));
    expect(await counter('Bot Traffic')).toBe(String(BOTS));
    expect(await cards.count()).toBe(PAGE);
    expect(sessionCalls[0].searchParams.get('limit')).toBe(String(PAGE));

    // Next pages by cursor, until the last one.
    await page.getByRole('button', { name: 'Load more' }).click();
    await cards.nth(2 * PAGE - 1).waitFor();
    await page.getByRole('button', { name: 'Load more' }).click();
    await cards.nth(TOTAL - 1).waitFor();
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(TOTAL);
    expect(sessionCalls.some((url) => url.searchParams.has('cursor'))).toBe(true);

    // Type and search go to the server; the counters stay the campaign's.
    await page.getByLabel('Session type').selectOption('bot');
    await page.locator('.session-card', { hasText: 'Human User' }).first().waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(BOTS);
    expect(sessionCalls.at(-1)!.searchParams.get('type')).toBe('bot');
    expect(await counter('Total Sessions')).toBe(String(TOTAL));
    await page.getByLabel('Session type').selectOption('all');
    await page.getByPlaceholder('Search by session ID, IP address, or language...').fill('ja-JP');
    await page.locator('.session-card', { hasText: 'sess0000' }).waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(1);
    // The card shows the id's start; the whole id is in its folded browser details.
    await page.locator('.session-card', { hasText: 'sess0077' }).waitFor();
    expect(sessionCalls.at(-1)!.searchParams.get('search')).toBe('ja-JP');
    await context.close();
  });
});
