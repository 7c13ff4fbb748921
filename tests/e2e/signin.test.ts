import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD } from '../helpers/signin.js';

/**
 * The whole sign-in journey in real Chromium against the real built PWA and the built-in
 * provider: open /, 'Sign in with Google', fill the provider's form, land on /dashboard.
 */
describe.skipIf(!hasChromium)('sign-in in the browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const shell = path.resolve('dist/app/index.html');
    if (!fs.existsSync(shell)) throw new Error(`the PWA is not built (${shell} is missing): run "npm run build" first`);
    server = await startServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in through the built-in provider and lands on the dashboard; another person after logout', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const signInAs = async (name: string, email: string) => {
      await page.getByRole('button', { name: 'Sign in with Google' }).first().click();
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByRole('heading', { name: 'Campaign Dashboard' }).waitFor();
      await page.getByRole('button', { name: 'Logout' }).waitFor();
      await page.getByText(name, { exact: true }).first().waitFor();
    };
    // PUBLIC_URL is the address the app announces (and the provider sends the browser back to).
    await page.goto(server.config.publicUrl + '/');
    await signInAs('Ada Lovelace', 'ada@example.test');

    const cookies = await context.cookies();
    const access = cookies.find((c) => c.name === 'td_access');
    expect(access?.httpOnly).toBe(true);
    expect(access?.sameSite).toBe('Lax');

    // By now the service worker may control the page: sign-in navigations must still reach the server.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await signInAs('Grace Hopper', 'grace@example.test');
    expect(await page.getByText('Ada Lovelace', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('a wrong password keeps the person on the form with the message, and the right one gets in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.config.publicUrl + '/');
    await page.getByRole('button', { name: 'Sign in with Google' }).first().click();
    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/oidc\/interaction\//);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByText('Ada Lovelace', { exact: true }).first().waitFor();
    await context.close();
  });
});
