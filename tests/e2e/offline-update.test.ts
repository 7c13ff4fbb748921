import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Updates prompt and never reload under the viewer: a new service worker waits until the
// user accepts the prompt, which activates it and reloads once. The server serves a private
// copy of the built app, so publishing a "new version" does not touch dist/.

describe.skipIf(!hasChromium)('service worker updates', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-needed'], { cwd: root, stdio: 'inherit' });
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers a waiting version and activates it only when the user accepts', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.config.publicUrl}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.evaluate(() => Object.assign(window, { stillThisPage: true }));

    // Publish a new version of the worker and let the page find it.
    const worker = path.join(server.config.distDir, 'app', 'sw.js');
    fs.appendFileSync(worker, '\n// next version\n');
    fs.rmSync(`${worker}.gz`, { force: true });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

    const prompt = page.getByRole('dialog', { name: 'Update available' });
    await prompt.getByText('A new version of Tapedeck is ready.').waitFor();
    // Waiting, not reloading: the page is the same one and the new worker is not in charge yet.
    expect(await page.evaluate(() => (window as Window & { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(true);

    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload to update' }).click()]);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await page.evaluate(() => (window as Window & { stillThisPage?: boolean }).stillThisPage)).toBeUndefined();
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: Boolean(registration?.waiting), active: registration?.active?.state };
    });
    expect(state).toEqual({ waiting: false, active: 'activated' });
    await context.close();
  });
});
