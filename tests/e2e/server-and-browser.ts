import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Before the describe block's tests: a server on its own copy of dist, and Chromium; after them, both closed. */
export function useServerAndBrowser(): { server: TestServer; browser: Browser } {
  const both = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    [both.server, both.browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
  });
  afterAll(async () => {
    await both.browser?.close();
    await both.server?.close();
  });
  return both;
}
