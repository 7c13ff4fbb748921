import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The API reference page in real Chromium, under the policy the server sends with it: its
// stylesheet applies (allowed by its hash), nothing is refused, and the paths are there to read.

type Violation = { directive: string; blocked: string };

declare global {
  interface Window {
    __docsViolations?: Violation[];
  }
}

describe.skipIf(!hasChromium)('the API reference page (/api/docs)', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every area and its paths, styled, with no Content Security Policy violation', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      window.__docsViolations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        window.__docsViolations?.push({ directive: event.effectiveDirective, blocked: event.blockedURI }),
      );
    });
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    onTestFailed(() => console.log(consoleLines.join('\n')));

    const response = await page.goto(`${server.url}/api/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Tapedeck API reference');
    expect(await page.getByRole('link', { name: 'funnels', exact: true }).count()).toBe(1);
    expect(await page.getByText('/api/v1/funnels/{campaignId}/{funnelId}/result', { exact: true }).isVisible()).toBe(true);
    // The stylesheet applied: a GET's badge is green, a DELETE's red.
    const badges = await page.evaluate(() =>
      ['get', 'delete'].map((method) => getComputedStyle(document.querySelector(`.method.${method}`) as Element).backgroundColor),
    );
    expect(badges).toEqual(['rgb(26, 127, 55)', 'rgb(207, 34, 46)']);
    // A schema opens without any script (<details>).
    const first = page.locator('details').first();
    await first.locator('summary').click();
    expect(await first.locator('pre').isVisible()).toBe(true);

    expect(await page.evaluate(() => window.__docsViolations)).toEqual([]);
    expect(consoleLines.filter((line) => /Content Security Policy|Refused/i.test(line))).toEqual([]);
    await context.close();
  });
});
