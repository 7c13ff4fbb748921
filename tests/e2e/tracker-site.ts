// A visitor's site for the tracker's browser tests: plain pages on their own 127.0.0.1 port,
// with the campaign's script installed the way a site owner would.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { buildTracker } from '../../tracker/build.mjs';
import { createCampaign, makeCampaign } from '../integration/ingest-support.js';

const DAY_MS = 86_400_000;

/** What the visitor types; none of it may appear in what is stored. */
export const TYPED = {
  email: 'typed-email-SECRET-qzxa',
  passwordHidden: 'pw-hidden-SECRET-wvjb',
  passwordShown: 'pw-shown-SECRET-kfyc',
  notes: 'textarea-SECRET-hgud',
};
/** Text on the page that masking and blocking must keep out of the recording. */
export const PAGE_SECRETS = [
  'PREFILLED-HIDDEN-SECRET',
  'placeholder.secret@example.com',
  'BLOCKED-RR-TEXT',
  'BLOCKED-TAPEDECK-TEXT',
  'MASKED-TAPEDECK-TEXT',
  'MASKED-RR-TEXT',
];

const layout = (title: string, script: string, body: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title>${script}</head>
<body style="font-family: sans-serif">${body}</body></html>`;

const checkout = (script: string) =>
  layout(
    'Checkout',
    script,
    `<h1>Checkout</h1>
<button id="buy" type="button">Buy now</button>
<form onsubmit="return false">
  <label>Email <input id="email" type="text" placeholder="placeholder.secret@example.com"></label>
  <label>Password <input id="password" type="password"></label>
  <button id="show" type="button" onclick="var p = document.getElementById('password'); p.type = p.type === 'password' ? 'text' : 'password';">Show password</button>
  <textarea id="notes"></textarea>
  <input id="token" type="hidden" name="token" value="PREFILLED-HIDDEN-SECRET">
  <input id="copy" type="hidden" name="copy">
</form>
<div class="rr-block">BLOCKED-RR-TEXT</div>
<div class="tapedeck-block">BLOCKED-TAPEDECK-TEXT</div>
<p class="tapedeck-mask">MASKED-TAPEDECK-TEXT</p>
<p class="rr-mask">MASKED-RR-TEXT</p>
<script>
  // The site copies what is typed into a hidden field, as checkout forms do.
  document.getElementById('email').addEventListener('input', function (e) { document.getElementById('copy').value = e.target.value; });
</script>
<div style="height: 2500px">Long product description</div>
<a id="next" href="/thanks.html">Continue</a>`,
  );

/** A page that rewrites itself wholesale: 12,000 new elements at once, past the mutation budget. */
const storm = (script: string) =>
  layout(
    'Storm',
    script,
    `<h1>Live ticker</h1><button id="storm" type="button">Start</button><button id="after" type="button">After</button>
<script>
  document.getElementById('storm').addEventListener('click', function () {
    var batch = document.createDocumentFragment();
    for (var i = 0; i < 12000; i++) { var tick = document.createElement('span'); tick.textContent = 'tick ' + i; batch.appendChild(tick); }
    document.body.appendChild(batch);
  });
</script>`,
  );

/** A long page: its full snapshot alone is several times the tracker's 512 KB batch size. */
const big = (script: string) =>
  layout(
    'Catalogue',
    script,
    `<h1>Catalogue</h1>${Array.from({ length: 20000 }, (_, i) => `<p>Item ${i}: a sturdy thing</p>`).join('')}<p>END-OF-CATALOGUE</p>`,
  );

const thanks = (script: string) => layout('Thanks', script, `<h1>Thank you</h1><button id="done" type="button">Done</button>`);

export interface Site {
  url: string;
  port: number;
  /** Sets the <script> tag(s) the pages carry, and headers the pages are served with (a CSP). */
  install(scriptTag: string, files?: Record<string, string>, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

/** The shop's pages, plus `extraPages` (by path, each given the installed tag) a test needs of its own. */
export async function startSite(extraPages: Record<string, (tag: string) => string> = {}): Promise<Site> {
  let tag = '';
  let files: Record<string, string> = {};
  let pageHeaders: Record<string, string> = {};
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const pages: Record<string, (tag: string) => string> = {
      '/': checkout,
      '/checkout.html': checkout,
      '/thanks.html': thanks,
      '/storm.html': storm,
      '/big.html': big,
      ...extraPages,
    };
    const page = pages[path]?.(tag) ?? null;
    if (page !== null) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...pageHeaders }).end(page);
    } else if (files[path] !== undefined) {
      response.writeHead(200, { 'content-type': 'application/javascript' }).end(files[path]);
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    install(scriptTag, extraFiles = {}, headers = {}) {
      tag = scriptTag;
      files = extraFiles;
      pageHeaders = headers;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface VisitorRig {
  server: TestServer;
  site: Site;
  browser: Browser;
  /** The signed-in owner, when the options name one. */
  owner: Awaited<ReturnType<typeof userSession>>;
  /** The owner's campaign, when the options ask for one. */
  campaignId: string;
}

export interface VisitorRigOptions {
  /**
   * A tracker built fresh from tracker/ into a dist of the test's own: 'alone' (the server has no
   * app to serve), or 'with app' (beside a copy of the built app). Without it, a private copy of dist.
   */
  tracker?: 'alone' | 'with app';
  /** More settings for the server. */
  env?: Record<string, string>;
  /** The name of an owner to sign in (rig.owner). */
  owner?: string;
  /** With an owner: their campaign "Leaf & Kettle" on shop.example.com, live since yesterday for 30 days (rig.campaignId). */
  campaign?: boolean;
}

/**
 * Before the file's tests: the server, the visitor's site (the shop's pages plus `extraPages`) and
 * Chromium, filled into the returned rig; after them, all closed again. Owner-only tests leave
 * the site unused.
 */
export function useVisitorRig(extraPages: Record<string, (tag: string) => string> = {}, options: VisitorRigOptions = {}): VisitorRig {
  const rig = {} as VisitorRig;
  let distDir: string | undefined;
  beforeAll(async () => {
    const env = options.env ?? {};
    if (options.tracker) {
      distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-e2e-dist-'));
      if (options.tracker === 'with app') fs.cpSync(path.resolve('dist'), distDir, { recursive: true });
      await buildTracker(path.join(distDir, 'tracker'));
      rig.server = await startServer({ DIST_DIR: distDir, ...env });
    } else {
      rig.server = await startServer(env, { privateDist: true });
    }
    if (options.owner) rig.owner = await userSession(rig.server, options.owner);
    if (options.owner && options.campaign) {
      const live = { from: Date.now() - DAY_MS, to: Date.now() + 30 * DAY_MS };
      rig.campaignId = (await createCampaign(rig.server, rig.owner.headers, 'Leaf & Kettle', 'shop.example.com', live)).id;
    }
    // One at a time, so what did start is closed after a failure.
    rig.site = await startSite(extraPages);
    rig.browser = await launchChromium();
  });
  afterAll(async () => {
    await rig.browser?.close();
    await rig.site?.close();
    await rig.server?.close();
    if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
  });
  return rig;
}

/** A fresh owner's campaign for the rig's site, its tracker on the site's pages as the snippet puts it. */
export async function ownerTrackingSite(rig: VisitorRig, ownerName: string) {
  const owner = await userSession(rig.server, ownerName);
  const campaignId = await makeCampaign(rig.server, { ownerId: owner.userId, domains: `127.0.0.1:${rig.site.port}` });
  rig.site.install(`<script async src="${rig.server.url}/t/${campaignId}.js"></script>`);
  return { owner, campaignId };
}

/** The app at `path`, signed in as rig.owner, in a desktop's or (isMobile) a phone's window, with no service worker. */
export async function openAsOwner(rig: VisitorRig, path: string, viewport: { width: number; height: number }, isMobile: boolean): Promise<Page> {
  const origin = rig.server.config.publicUrl;
  const context = await signedInContext(rig.browser, origin, rig.owner, { viewport, isMobile, hasTouch: isMobile, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${origin}${path}`);
  return page;
}

/** The recorder has started on the page (it adds flush() to window.tapedeck). */
export const recorderRunning = (page: Page) => page.waitForFunction(() => typeof (window as { tapedeck?: { flush?: unknown } }).tapedeck?.flush === 'function');

/** Sends what the recorder holds now, as its 5-second timer would. */
export const flushRecorder = (page: Page) => page.evaluate(() => (window as unknown as { tapedeck: { flush(): void } }).tapedeck.flush());

/**
 * A visitor on the checkout page: buys, types every secret (showing the password half-way, so
 * the field turns type=text), scrolls down, and goes on to the thank-you page.
 */
export async function shopAtCheckout(page: Page, siteUrl: string): Promise<void> {
  await page.click('#buy');
  await page.click('#email');
  await page.keyboard.type(TYPED.email);
  await page.click('#password');
  await page.keyboard.type(TYPED.passwordHidden);
  await page.click('#show');
  expect(await page.getAttribute('#password', 'type')).toBe('text');
  await page.click('#password');
  await page.keyboard.type(TYPED.passwordShown);
  await page.click('#notes');
  await page.keyboard.type(TYPED.notes);
  expect(await page.inputValue('#copy')).toBe(TYPED.email);
  await page.mouse.wheel(0, 1200);
  await page.waitForFunction(() => window.scrollY > 500);
  await page.click('#next');
  await page.waitForURL(`${siteUrl}/thanks.html`);
}
