import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

/** The system Chromium: CHROMIUM_PATH, else /usr/bin/chromium; null when neither exists. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

/**
 * Browser tests run only where a Chromium exists. Without one they are skipped with a loud
 * warning — and where REQUIRE_BROWSER=1 (CI) a missing browser is a failure, never a skip.
 */
export const hasChromium = (() => {
  const found = chromiumPath() !== null;
  if (!found) {
    const message = 'NO CHROMIUM FOUND (set CHROMIUM_PATH or install /usr/bin/chromium): BROWSER TESTS ARE SKIPPED';
    if (process.env.REQUIRE_BROWSER === '1') throw new Error(message);
    console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
  }
  return found;
})();

/** extraArgs: more Chromium switches, e.g. a visitor's everyday browser ('--user-agent=…'). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found');
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** A browser context signed in as `user` (from userSession): its cookies set on the app's origin. */
export async function signedInContext(
  browser: Browser,
  origin: string,
  user: { cookie: string },
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addCookies(
    user.cookie.split('; ').map((pair) => {
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: origin };
    }),
  );
  return context;
}
