import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { makeCampaign, sessionId } from '../integration/ingest-support.js';
import { insertSession } from '../../server/recordings/seed.js';
import { STORAGE_QUOTA_TITLE } from '../../src/components/StorageQuotaNotice.js';

// A campaign at its storage quota (STORAGE_QUOTA_MB): its sessions page tells the owner why
// new sessions are not recorded; a campaign under its quota shows no such notice.

describe.skipIf(!hasChromium)('storage quota notice on the campaign sessions page', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ STORAGE_QUOTA_MB: '1' }, { privateDist: true }), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function campaignHolding(ownerId: string, bytes: number): Promise<string> {
    const campaignId = await makeCampaign(server, { ownerId });
    const id = sessionId();
    await insertSession(server.db, { campaign_id: campaignId, id, started_at: Date.now() - 60_000, last_activity_at: Date.now() - 1000, event_count: 10 });
    await server.db.updateTable('sessions').set({ byte_count: bytes }).where('id', '=', id).execute();
    return campaignId;
  }

  it('shows the notice on a full campaign, and none on one with room', async () => {
    const owner = await userSession(server, 'Full Owner');
    const full = await campaignHolding(owner.userId, 1024 * 1024);
    const roomy = await campaignHolding(owner.userId, 1024);
    const context = await signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.config.publicUrl}/campaign/${full}`);
      const notice = page.getByRole('alert').filter({ hasText: STORAGE_QUOTA_TITLE });
      await notice.waitFor();
      expect(await notice.textContent()).toContain('use 1.0 MB of its 1.0 MB storage quota, so new sessions are not recorded.');

      await page.goto(`${server.config.publicUrl}/campaign/${roomy}`);
      // The list has loaded (its one session's card is there) and no notice came with it.
      await page.getByText('Human User').first().waitFor();
      expect(await page.getByText(STORAGE_QUOTA_TITLE).count()).toBe(0);

      // The dashboard says each campaign's use of its quota.
      await page.goto(`${server.config.publicUrl}/dashboard`);
      const storageOf = (id: string) =>
        page
          .getByTestId('campaign-row')
          .filter({ has: page.locator(`a[href="/campaign/${id}"]`) })
          .getByTestId('campaign-storage');
      await expect.poll(() => storageOf(full).textContent()).toBe('1.0 MB of 1.0 MB stored — full: new visitors are not recorded');
      expect(await storageOf(roomy).textContent()).toBe('1.0 KB of 1.0 MB stored');
    } finally {
      await context.close();
    }
  });
});
