import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { makeCampaign, sessionId } from '../integration/ingest-support.js';
import { insertSession } from '../../server/recordings/seed.js';

// After an erasure every screen shows what is left at once: the Insights figures and the
// dashboard's counts the owner looked at a moment before are asked for again, not kept for the
// cache's 30 seconds.

describe.skipIf(!hasChromium)('every screen after an erasure', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const insightsSessions = (page: Page) => page.locator('.stat', { has: page.locator('.stat-label', { hasText: /^Sessions$/ }) }).locator('.stat-value');

  it('refetches Insights and the dashboard once a person is erased', async () => {
    const owner = await userSession(server, 'Erasing Owner');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const started = Date.now() - 3_600_000;
    for (const user_id of ['cust-1', null]) {
      await insertSession(server.db, {
        campaign_id: campaignId,
        id: sessionId(),
        started_at: started,
        last_activity_at: started + 60_000,
        event_count: 10,
        has_human_input: 1,
        user_id,
      });
    }
    await server.db.updateTable('campaigns').set({ session_count: 2 }).where('id', '=', campaignId).execute(); // as ingest counts them
    const context = await signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      // Everything within the cache's freshness, by the app's own links: one page load.
      await page.goto(`${server.config.publicUrl}/campaign/${campaignId}?user=cust-1`);
      await page.getByRole('link', { name: 'Insights' }).click();
      await expect.poll(() => insightsSessions(page).textContent()).toBe('2');
      await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
      const usage = page.getByTestId('campaign-usage');
      await expect.poll(() => usage.textContent()).toBe('2 sessions');
      await page.goBack();
      await page.goBack();
      await page.getByRole('link', { name: 'This person: their data and erasure' }).click();
      await page.getByRole('button', { name: 'Erase this person' }).click();
      await page.getByLabel('Type the user id to confirm').fill('cust-1');
      await page.getByRole('button', { name: 'Erase', exact: true }).click();
      await page.waitForURL(`**/campaign/${campaignId}`);
      await page.getByRole('link', { name: 'Insights' }).click();
      await expect.poll(() => insightsSessions(page).textContent(), { timeout: 10_000 }).toBe('1');
      await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
      await expect.poll(() => usage.textContent(), { timeout: 10_000 }).toBe('1 session');
    } finally {
      await context.close();
    }
  });
});
