import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

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

  it('signs in through the built-in provider and lands on the dashboard', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // PUBLIC_URL is the address the app announces (and the provider sends the browser back to).
    await page.goto(server.config.publicUrl + '/');
    await page.getByRole('button', { name: 'Sign in with Google' }).first().click();

    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('heading', { name: 'Campaign Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByText('Ada Lovelace', { exact: true }).first().waitFor();

    const cookies = await context.cookies();
    const access = cookies.find((c) => c.name === 'td_access');
    expect(access?.httpOnly).toBe(true);
    expect(access?.sameSite).toBe('Lax');
    await context.close();
  });
});
