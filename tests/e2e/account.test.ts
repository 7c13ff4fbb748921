import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD } from '../helpers/signin.js';
import { step, until } from './step.js';
import { expectAccessible } from './a11y.js';

const ADA = { name: 'Ada Account', email: 'ada.account@example.test' };

/** The user this device remembers for starting offline (wiped on sign-out), read from its IndexedDB. */
const rememberedUser = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const open = indexedDB.open('tapedeck-offline');
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('settings')) return resolve(null);
          const get = db.transaction('settings').objectStore('settings').get('cachedUser');
          get.onsuccess = () => resolve(get.result ?? null);
          get.onerror = () => resolve(null);
        };
      }),
  );

/**
 * The account page in real Chromium against the built PWA, signed in through the built-in
 * provider from two browsers: both sign-ins listed, the other one signed out from here, then the
 * account deleted with the typed email.
 */
describe.skipIf(!hasChromium)('the account page', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const shell = path.resolve('dist/app/index.html');
    if (!fs.existsSync(shell)) throw new Error(`the PWA is not built (${shell} is missing): run "npm run build" first`);
    server = await startServer({}, { privateDist: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedInPage(): Promise<Page> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.config.publicUrl + '/');
    await page.getByRole('button', { name: 'Sign in with Google' }).first().click();
    await page.getByLabel('Name').fill(ADA.name);
    await page.getByLabel('Email').fill(ADA.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('heading', { name: 'Campaign Dashboard' }).waitFor();
    return page;
  }

  it('lists both devices, signs the other one out, and deletes the account with the typed email', async () => {
    const laptop = await step('1. Sign in on the laptop', signedInPage);
    const phone = await step('2. Sign in on the phone', signedInPage);
    await step('3. The laptop makes a campaign', async () => {
      const response = await laptop.context().request.post(`${server.config.publicUrl}/api/v1/campaign/create`, {
        headers: { origin: server.config.publicUrl },
        data: { name: 'Leaving soon', domains: 'example.com', limit: 0, start_date_time: 1, end_date_time: 2e12 },
      });
      expect(response.status()).toBe(201);
    });

    const rows = laptop.locator('.sign-in-row');
    await step('4. The account page lists both sign-ins, this one marked', async () => {
      await laptop.getByRole('link', { name: `${ADA.name} (account)` }).click();
      await laptop.waitForURL((url) => url.pathname === '/account');
      await laptop.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      await until('two sign-ins', async () => (await rows.count()) === 2);
      expect(await rows.filter({ hasText: 'This device' }).count()).toBe(1);
      expect(await laptop.title()).toBe('Account — Tapedeck');
      await expectAccessible(laptop, 'account page');
    });

    await step('5. Sign the phone out from the laptop', async () => {
      await rows
        .filter({ hasNotText: 'This device' })
        .getByRole('button', { name: /^Sign out/ })
        .click();
      await until('one sign-in left', async () => (await rows.count()) === 1);
      expect(await rows.first().textContent()).toContain('This device');
      // The phone's next request is refused (its refresh token too): it lands signed out.
      await phone.reload();
      await phone.waitForURL((url) => url.pathname === '/');
      await phone.getByRole('button', { name: 'Sign in with Google' }).first().waitFor();
    });

    await step('6. Delete the account: only the exact email enables the button', async () => {
      expect(await rememberedUser(laptop)).toMatchObject({ email: ADA.email });
      await laptop.getByRole('button', { name: 'Delete account' }).click();
      const dialog = laptop.getByRole('dialog', { name: 'Delete account?' });
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: 'Delete account' });
      expect(await confirm.isDisabled()).toBe(true);
      await expectAccessible(laptop, 'delete account dialog');
      await dialog.getByLabel(/Type your email/).fill('someone@example.test');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel(/Type your email/).fill(ADA.email.toUpperCase());
      expect(await confirm.isDisabled()).toBe(false);
      await confirm.click();
      await laptop.waitForURL((url) => url.pathname === '/');
      await laptop.getByRole('button', { name: 'Sign in with Google' }).first().waitFor();
      expect(await rememberedUser(laptop)).toBeNull();
      expect((await laptop.context().cookies()).filter((c) => c.name.startsWith('td_'))).toEqual([]);
    });

    await step('7. Nothing of the account is left on the server', async () => {
      expect(await server.db.selectFrom('users').select('id').where('email', '=', ADA.email).execute()).toEqual([]);
      expect(await server.db.selectFrom('campaigns').select('id').execute()).toEqual([]);
      expect(await server.db.selectFrom('local_accounts').select('email').where('email', '=', ADA.email).execute()).toEqual([]);
    });
  });
});
