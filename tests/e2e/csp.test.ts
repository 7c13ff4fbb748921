import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { makeCampaign, info, postBatch, sessionId } from '../integration/ingest-support.js';
import { startCustomerSite, type CustomerSite } from './offline-fixtures.js';
import { recordedPage } from './replay-fixtures.js';

// The app shell's Content Security Policy in real Chromium: the replay player still shows a
// recorded page (its <style>, inline styles, stylesheet and images from the recorded site) with
// no violation from the app's own scripts, while nothing recorded can run: neither a <script>
// nor an inline event handler of the visitor's page.

type Violation = { directive: string; blocked: string; sample: string };

declare global {
  interface Window {
    __violations?: Violation[];
    __pwned?: number;
    __inlineRan?: number;
  }
}

/** A visitor's page as rrweb records it, with a script and an onerror handler that must never run. */
function hostileRecording(site: string, start: number) {
  let id = 0;
  const el = (tagName: string, attributes: Record<string, string>, childNodes: unknown[] = []) => ({ type: 2, id: ++id, tagName, attributes, childNodes });
  const text = (textContent: string) => ({ type: 3, id: ++id, textContent });
  const node = {
    type: 0,
    id: ++id,
    childNodes: [
      { type: 1, id: ++id, name: 'html', publicId: '', systemId: '' },
      el('html', {}, [
        el('head', {}, [
          el('link', { rel: 'stylesheet', href: `${site}/site.css` }),
          el('style', {}, [text('h2 { color: rgb(1, 2, 3); }')]),
          el('script', {}, [text('window.parent.__pwned = 1; window.__pwned = 1;')]),
        ]),
        el('body', {}, [
          el('h1', {}, [text('Recorded shop')]),
          el('h2', { style: 'background-color: rgb(4, 5, 6)' }, [text('Styled inline')]),
          el('img', { src: `${site}/logo.png`, width: '96', height: '96', alt: 'logo' }),
          el('img', { src: `${site}/missing.png`, onerror: 'window.parent.__pwned = 2', alt: 'broken' }),
          el('script', { src: `${site}/evil.js` }),
        ]),
      ]),
    ],
  };
  return recordedPage(site, node, start, { width: 800, height: 600, moves: 30, movesOver: 6 });
}

describe.skipIf(!hasChromium)('the app under its Content Security Policy', () => {
  let server: TestServer;
  let browser: Browser;
  let site: CustomerSite;

  beforeAll(async () => {
    [server, browser, site] = await Promise.all([startServer({}, { privateDist: true }), launchChromium(), startCustomerSite()]);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
  });

  /** The replayer's iframe shows the recorded page, styled, with the recorded site's image. */
  const recordedPageShown = (page: Page) =>
    page.waitForFunction(() => {
      const doc = document.querySelector<HTMLIFrameElement>('.replayer-wrapper iframe')?.contentDocument;
      const logo = doc?.querySelector<HTMLImageElement>('img[alt="logo"]');
      const broken = doc?.querySelector<HTMLImageElement>('img[alt="broken"]');
      return Boolean(doc && logo?.complete && logo.naturalWidth > 0 && broken?.complete && getComputedStyle(doc.body).backgroundColor === 'rgb(253, 230, 138)');
    });

  it('plays a replay with no violation from the app, runs nothing recorded, and refuses injected inline script', async () => {
    const owner = await userSession(server, 'Cyd Policy');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const stored = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: hostileRecording(site.origin, Date.now() - 60_000) });
    expect(await stored.json()).toEqual({ stored: true });

    const origin = server.config.publicUrl;
    const context = await signedInContext(browser, origin, owner, { viewport: { width: 1280, height: 900 } });
    // Every violation in the app's own document, from its first script on.
    await context.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        window.__violations?.push({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample }),
      );
    });
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    onTestFailed(() => console.log(`at ${page.url()}\n${consoleLines.join('\n')}`));

    const response = await page.goto(`${origin}/campaign/${campaignId}/session/${id}`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await recordedPageShown(page);

    // The recorded page looks as recorded: its <style> element and its inline style apply.
    const frame = page.frames().find((f) => f !== page.mainFrame() && f.parentFrame() === page.mainFrame());
    expect(frame).toBeTruthy();
    const looks = await frame!.evaluate(() => {
      const h2 = document.querySelector('h2') as HTMLElement;
      return { color: getComputedStyle(h2).color, background: getComputedStyle(h2).backgroundColor };
    });
    expect(looks).toEqual({ color: 'rgb(1, 2, 3)', background: 'rgb(4, 5, 6)' });

    // It plays: press play and the clock moves.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="player-time"]')?.textContent ?? '00:00') !== '00:00');

    // The recorded onerror handler is in the replayed page (rrweb turns <script> into <noscript>),
    // and the browser refused to run it when the image failed.
    expect(await frame!.evaluate(() => document.querySelector('img[alt="broken"]')?.getAttribute('onerror'))).toBe('window.parent.__pwned = 2');
    await expect.poll(() => consoleLines.some((line) => line.includes('Blocked script execution'))).toBe(true);
    // Nothing recorded ran, in the player's frame or in the app.
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    expect(await frame!.evaluate(() => (window as Window).__pwned)).toBeUndefined();
    // The app's own scripts, styles, worker and player raised no violation.
    expect(await page.evaluate(() => window.__violations)).toEqual([]);
    expect(consoleLines.filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
    expect(errors).toEqual([]);

    // An inline script injected into the app (what stored XSS would do) is refused by the policy.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = 1';
      document.body.append(script);
    });
    await page.waitForFunction(() => (window.__violations ?? []).length > 0);
    expect(await page.evaluate(() => window.__inlineRan)).toBeUndefined();
    expect(await page.evaluate(() => window.__violations)).toEqual([expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' })]);
    await context.close();
  });
});
