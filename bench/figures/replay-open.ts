// Figure 6: in Chromium, time from navigation to the player's first frame for the 100,000-event
// session — online (the app installed, the replay not yet on the device) and offline from
// IndexedDB — vs rrweb-player alone on a bare page fetching the same events.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { budgetOf, stats, type BenchOptions, type Row } from '../lib.js';
import { withServer, type BenchServer } from '../support/server.js';
import { createCampaign, createOwner, storeSession, type Owner } from '../support/seed.js';
import { demoEvents, sessionOfSize } from '../support/recording.js';
import { newContext, withBrowser } from '../support/browser.js';
import { serveSite, siteTypes, type Site } from '../support/static-site.js';
import type { ReplayEvent } from '../../common/api-types.js';

export const title = 'Opening a replay';

const root = path.resolve(import.meta.dirname, '..', '..');
const TIMEOUT = 120_000;
/** Issue 13: navigation → first frame within this many times rrweb-player alone (the full run's workload). */
const FIRST_FRAME_BUDGET = 1.3;

/** In the page: ms since navigation start once the player's iframe shows the rebuilt page. A
 * function, not a string: the app's CSP has no 'unsafe-eval'. */
function shownFirstFrame(): number | false {
  const frame = document.querySelector<HTMLIFrameElement>('.replayer-wrapper iframe');
  const doc = frame && frame.contentDocument;
  return doc && doc.body && doc.body.childElementCount > 0 ? performance.now() : false;
}

async function firstFrame(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT });
  const handle = await page.waitForFunction(shownFirstFrame, undefined, { polling: 'raf', timeout: TIMEOUT });
  return (await handle.jsonValue()) as number;
}

/** The floor: rrweb-player alone on a bare page, fetching the same events as static gzip JSON. */
function barePlayerSite(events: ReplayEvent[]): Promise<Site> {
  const dist = path.join(root, 'node_modules/rrweb-player/dist');
  const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/player.css"><script src="/player.js"></script></head>
<body><div id="root"></div><script>
fetch('/events.json').then(function (r) { return r.json(); }).then(function (body) {
  var Player = window.rrwebPlayer.default || window.rrwebPlayer;
  new Player({ target: document.getElementById('root'), props: { events: body.events, width: 1024, height: 768, autoPlay: false, showController: true } });
});
</script></body></html>`;
  return serveSite({
    '/': { body: html, type: siteTypes.html },
    '/player.js': { body: fs.readFileSync(path.join(dist, 'rrweb-player.umd.min.cjs')), type: siteTypes.js },
    '/player.css': { body: fs.readFileSync(path.join(dist, 'style.min.css')), type: siteTypes.css },
    '/events.json': { body: JSON.stringify({ events }), type: siteTypes.json },
  });
}

/** Opens the app once so its service worker is installed and in control, as for a returning user. */
async function installApp(context: BrowserContext, server: BenchServer): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${server.url}/dashboard`, { waitUntil: 'load' });
  await page
    .waitForFunction('navigator.serviceWorker && navigator.serviceWorker.ready.then(function () { return true; })', undefined, { timeout: 20_000 })
    .catch(() => undefined); // no service worker: the online figure still stands, the offline one will say so
  await page.close();
}

/** Waits until the replay is saved, complete, in the app's IndexedDB. */
async function savedOnDevice(page: Page, key: string): Promise<void> {
  const check = `new Promise(function (resolve) {
    var open = indexedDB.open('tapedeck-offline');
    open.onerror = function () { resolve(false); };
    open.onsuccess = function () {
      var db = open.result;
      if (!db.objectStoreNames.contains('replays')) { db.close(); return resolve(false); }
      var get = db.transaction('replays').objectStore('replays').get(${JSON.stringify(key)});
      get.onsuccess = function () { db.close(); resolve(!!(get.result && get.result.complete)); };
      get.onerror = function () { db.close(); resolve(false); };
    };
  })`;
  // Polled with evaluate, which awaits the check's promise (waitForFunction took the pending
  // promise itself as a yes, so the offline part could start before the replay was saved).
  const deadline = Date.now() + 60_000;
  while (!(await page.evaluate(check))) {
    if (Date.now() > deadline) {
      throw new Error('offline replay not available yet: the replay was not saved in IndexedDB (tapedeck-offline/replays) after opening it online');
    }
    await page.waitForTimeout(250);
  }
}

interface Pair {
  online: number;
  offline: number;
}

async function onlineThenOffline(browser: Browser, server: BenchServer, owner: Owner, campaignId: string, sessionId: string): Promise<Pair> {
  const context = await newContext(browser, { owner, origin: server.url });
  try {
    await installApp(context, server);
    const url = `${server.url}/campaign/${campaignId}/session/${sessionId}`;
    const page = await context.newPage();
    const online = await firstFrame(page, url);
    await savedOnDevice(page, `${campaignId}/${sessionId}`);
    await page.close();
    await context.setOffline(true);
    const offlinePage = await context.newPage();
    let offline: number;
    try {
      offline = await firstFrame(offlinePage, url);
    } catch (error) {
      throw new Error(`offline replay not available yet: ${String(error).split('\n')[0]}`, { cause: error });
    }
    return { online, offline };
  } finally {
    await context.close();
  }
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const count = options.quick ? 5_000 : 100_000;
  const events = sessionOfSize(demoEvents(), count);
  const bare = await barePlayerSite(events);
  try {
    return await withServer({}, async (server) => {
      const owner = await createOwner(server);
      const campaignId = await createCampaign(server.db, owner.userId, '127.0.0.1');
      const sessionId = await storeSession(server.db, campaignId, events);
      return withBrowser(async (browser) => {
        const floor: number[] = [];
        const pairs: Pair[] = [];
        if (!options.quick) await onlineThenOffline(browser, server, owner, campaignId, sessionId); // warm-up
        for (let i = 0; i < options.runs; i++) {
          pairs.push(await onlineThenOffline(browser, server, owner, campaignId, sessionId));
          const context = await newContext(browser);
          floor.push(await firstFrame(await context.newPage(), bare.url));
          await context.close();
        }
        const label = `${count.toLocaleString('en-US')}-event session`;
        // The player starts on the first page while the rest downloads: both within 1.3× of the floor.
        const baseline = { name: 'rrweb-player alone on a bare page, same events as static gzip JSON', stats: stats(floor) };
        const budget = budgetOf(options, FIRST_FRAME_BUDGET, 'ratio');
        return [
          {
            group: title,
            name: `navigation → player's first frame, online (${label})`,
            unit: 'ms',
            ours: stats(pairs.map((p) => p.online)),
            baseline,
            ...budget,
          },
          {
            group: title,
            name: `navigation → player's first frame, offline from IndexedDB (${label})`,
            unit: 'ms',
            ours: stats(pairs.map((p) => p.offline)),
            baseline,
            ...budget,
          },
        ];
      });
    });
  } finally {
    await bare.close();
  }
}
