// Chromium for the figures: the system browser through tests/helpers/browser.ts, with contexts that
// carry an owner's session cookies when asked.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { launchChromium } from '../../tests/helpers/browser.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../../server/auth/tokens.js';
import type { Owner } from './seed.js';

export { launchChromium };

export async function withBrowser<T>(use: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await launchChromium();
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}

/**
 * A fresh browser context. tsx compiles functions passed to page.evaluate with esbuild's
 * keepNames, which calls a `__name` helper the page does not have: the init script provides it.
 */
export async function newContext(browser: Browser, options: BrowserContextOptions & { owner?: Owner; origin?: string } = {}): Promise<BrowserContext> {
  const { owner, origin, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
  if (owner && origin) {
    await context.addCookies([
      { name: ACCESS_COOKIE, value: owner.access, url: origin, httpOnly: true, sameSite: 'Lax' },
      { name: REFRESH_COOKIE, value: owner.refresh, url: `${origin}/api/v1/auth`, httpOnly: true, sameSite: 'Lax' },
    ]);
  }
  return context;
}
