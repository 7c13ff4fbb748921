import { describe, expect, it } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import { useServerAndBrowser } from './server-and-browser.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import { desktopRecording, recordedAgo } from './replay-fixtures.js';
import { step } from './step.js';

// Issue 24, point 13: the share panel's fields look like the app's, "Contact us" is offered only
// when there is an address to contact, and the built-in sign-in page says whose accounts it uses
// and checks the password's length in the browser, with no script (its CSP allows none).

describe.skipIf(!hasChromium)('small things', () => {
  const e2e = useServerAndBrowser(); // no CONTACT_EMAIL

  it('the share panel: a full-size select and checkbox, and the link as wide as the panel', async () => {
    const { server, browser } = e2e;
    const owner = await userSession(server, 'Panel Owner');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const recorded = sessionId();
    await postBatch(server, campaignId, { sessionId: recorded, seq: 0, info: info({}), events: recordedAgo(desktopRecording, 60_000) });
    const context = await signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.config.publicUrl}/campaign/${campaignId}/session/${recorded}`);
    await page.getByRole('button', { name: 'Share' }).click();
    const select = await page.getByLabel('Link expires after').boundingBox();
    const checkbox = await page.getByLabel('Include session details').boundingBox();
    expect(select!.height).toBeGreaterThanOrEqual(40);
    expect(checkbox!.width).toBeGreaterThanOrEqual(18);
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByTestId('share-url').waitFor();
    const link = await page.getByTestId('share-url').boundingBox();
    const panel = await page.getByRole('region', { name: 'Share this replay' }).boundingBox();
    expect(link!.width).toBeGreaterThan(panel!.width / 2);
    expect(link!.height).toBeGreaterThanOrEqual(40);
    await context.close();
  });

  it('no "Contact us" on the landing page when the server has no contact address', async () => {
    const { server, browser } = e2e;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.config.publicUrl}/`);
    await page.getByRole('heading', { name: 'Start recording today' }).waitFor();
    // The footer has loaded the site's settings (its Privacy link is there) and offers no address.
    await page.locator('footer#contact').getByRole('link', { name: 'Privacy' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'Have questions? Contact us' }).count()).toBe(0);
    await context.close();
  });

  it('the built-in sign-in page says it uses this server’s accounts and refuses a short password in the browser', async () => {
    const { server, browser } = e2e;
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => /Content Security Policy/i.test(message.text()) && violations.push(message.text()));
    await page.goto(`${server.config.publicUrl}/`);
    await step('1. "Sign in with Google" leads to a page that says plainly whose accounts these are', async () => {
      await page.getByRole('button', { name: 'Sign in with Google' }).first().click();
      await page.getByRole('heading', { name: 'Sign in to Tapedeck' }).waitFor();
      await page.getByText('This server uses its own accounts (Google sign-in is not configured on this server).', { exact: false }).waitFor();
    });
    const rule = page.getByText('Please choose a password of at least 8 characters.');
    await step('2. A short password shows the server’s rule, and the form is not sent', async () => {
      expect(await rule.isVisible()).toBe(false);
      await page.getByLabel('Name').fill('Short Pass');
      await page.getByLabel('Email').fill('short@example.test');
      await page.getByLabel('Password').fill('abc');
      const before = page.url();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await rule.waitFor({ state: 'visible' });
      expect(page.url()).toBe(before);
    });
    await step('3. A long enough password hides it again', async () => {
      await page.getByLabel('Password').fill('abcdefgh');
      await page.getByLabel('Email').focus();
      await rule.waitFor({ state: 'hidden' });
    });
    expect(violations).toEqual([]);
    await context.close();
  });
});
