import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import { desktopRecording, recordedAgo } from './replay-fixtures.js';
import { step } from './step.js';

// Share a replay: the owner creates a link on the replay page, someone with no account opens it
// in a browser with no cookies and watches, the owner revokes it, the link then says so.

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!hasChromium)('share links', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: Awaited<ReturnType<typeof userSession>>;
  let campaignId = '';
  let recorded = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
    owner = await userSession(server, 'Sam Sharer');
    campaignId = await makeCampaign(server, { ownerId: owner.userId });
    recorded = sessionId();
    const answer = await postBatch(server, campaignId, { sessionId: recorded, seq: 0, info: info({}), events: recordedAgo(desktopRecording, 60_000) });
    expect(await answer.json()).toEqual({ stored: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function ownerContext(): Promise<BrowserContext> {
    return signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
  }

  const playButton = (page: Page) => page.getByRole('button', { name: /^(Play|Pause)$/ });

  it('creates a link, opens it with no cookies, revokes it, and the link then no longer works', async () => {
    const ownerSide = await ownerContext();
    const ownerPage = await ownerSide.newPage();
    const url = await step('1. Create a link on the replay page', async () => {
      await ownerPage.goto(`${server.config.publicUrl}/campaign/${campaignId}/session/${recorded}`);
      await ownerPage.getByRole('heading', { name: 'Session Replay' }).waitFor();
      await ownerPage.getByRole('button', { name: 'Share' }).click();
      await ownerPage.getByLabel('Link expires after').selectOption('1h');
      await ownerPage.getByRole('button', { name: 'Create link' }).click();
      const field = ownerPage.getByTestId('share-url');
      await field.waitFor();
      const value = await field.inputValue();
      expect(value).toMatch(new RegExp(`^${server.config.publicUrl}/shared/[A-Za-z0-9_-]{43}$`));
      await ownerPage.getByRole('list', { name: 'Share links' }).getByRole('listitem').first().waitFor();
      return value;
    });

    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    expect(await visitor.cookies()).toEqual([]);
    const visitorPage = await visitor.newPage();
    await step('2. Watch it with no cookies', async () => {
      await visitorPage.goto(url);
      await visitorPage.getByRole('heading', { name: 'Shared Session Replay' }).waitFor();
      await visitorPage.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await expect.poll(() => playButton(visitorPage).isEnabled()).toBe(true);
      await playButton(visitorPage).click();
      await expect.poll(() => visitorPage.getByRole('button', { name: 'Pause' }).count()).toBe(1);
      // No session details were asked for: no IP on the page.
      expect(await visitorPage.getByText('IP Address').count()).toBe(0);
      expect(await visitorPage.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
    });

    await step('3. Revoke it', async () => {
      await ownerPage.getByRole('button', { name: 'Revoke' }).click();
      await ownerPage.getByText(/revoked/).waitFor();
    });

    await step('4. The link says it no longer works', async () => {
      await visitorPage.reload();
      await visitorPage.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      expect(await visitorPage.locator('.replayer-wrapper iframe').count()).toBe(0);
    });

    await step("5. Where the app's worker is installed, the link still comes from the server, with its strict headers", async () => {
      await ownerPage.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
      const response = await ownerPage.goto(url);
      expect(response?.fromServiceWorker()).toBe(false);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
      await ownerPage.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    });
    await visitor.close();
    await ownerSide.close();
  });
});
