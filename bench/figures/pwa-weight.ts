// Figure 8: the JavaScript the PWA makes a browser download (gzip) when navigating to / and to the
// replay route, measured in Chromium, vs the framework floor bundled alone. Budget: ≤ 200 KB for /.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { exact, stats, type BenchOptions, type Row } from '../lib.js';
import { withServer, type BenchServer } from '../support/server.js';
import { createCampaign, createOwner, storeSession, type Owner } from '../support/seed.js';
import { demoEvents } from '../support/recording.js';
import { newContext, withBrowser } from '../support/browser.js';

export const title = 'PWA weight';

const root = path.resolve(import.meta.dirname, '..', '..');
const appDir = path.join(root, 'dist', 'app');

interface Script {
  path: string;
  /** gzip -9 of the bytes the browser received (the server sends the build's pre-compressed .gz, level 9). */
  gzip: number;
}

/** The same-origin .js files the page loads on navigation, until the network is quiet. */
async function scriptsLoaded(browser: Browser, server: BenchServer, route: string, owner?: Owner, ready?: string): Promise<Script[]> {
  // Service workers blocked: their precache downloads are not what the page needs to start.
  const context = await newContext(browser, { serviceWorkers: 'block', owner, origin: server.url });
  try {
    const page = await context.newPage();
    const scripts = new Map<string, Promise<number>>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin !== server.url || !url.pathname.endsWith('.js') || !response.ok() || scripts.has(url.pathname)) return;
      scripts.set(
        url.pathname,
        response.body().then((body) => zlib.gzipSync(body, { level: 9 }).length),
      );
    });
    await page.goto(server.url + route, { waitUntil: 'networkidle' });
    if (ready) await page.getByText(ready, { exact: false }).first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    return Promise.all([...scripts].map(async ([p, gzip]) => ({ path: p, gzip: await gzip })));
  } finally {
    await context.close();
  }
}

/** The floor: the same libraries bundled alone by esbuild (minified, production), gzip -9. */
async function bundleGzip(source: string): Promise<number> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'tsx' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return zlib.gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
}

export async function run(options: BenchOptions): Promise<Row[]> {
  if (!fs.existsSync(path.join(appDir, 'index.html'))) throw new Error('dist/app is missing: the PWA is not built');
  const reactAlone = await bundleGzip(`import { createRoot } from 'react-dom/client'; import { createElement } from 'react';
    createRoot(document.body).render(createElement('p', null, 'hi'));`);
  const reactAndPlayer = await bundleGzip(`import { createRoot } from 'react-dom/client'; import { createElement } from 'react';
    import Player from 'rrweb-player'; createRoot(document.body).render(createElement('p', null, String(Player)));`);
  return withServer({}, async (server) => {
    const owner = await createOwner(server);
    const campaignId = await createCampaign(server.db, owner.userId, '127.0.0.1');
    const sessionId = await storeSession(server.db, campaignId, demoEvents());
    return withBrowser(async (browser) => {
      const measure = async (route: string, withOwner: boolean, ready?: string) => {
        const totals: number[] = [];
        let files: Script[] = [];
        for (let i = 0; i < options.runs; i++) {
          files = await scriptsLoaded(browser, server, route, withOwner ? owner : undefined, ready);
          if (files.length === 0) throw new Error(`no JavaScript loaded for ${route}`);
          totals.push(files.reduce((sum, f) => sum + f.gzip, 0) / 1024);
        }
        return { stats: stats(totals), files };
      };
      const home = await measure('/', false);
      const replay = await measure(`/campaign/${campaignId}/session/${sessionId}`, true, 'events recorded');
      return [
        {
          group: title,
          name: `initial JS gzip for / (${home.files.length} files)`,
          unit: 'KB',
          ours: home.stats,
          baseline: { name: 'React 19 + ReactDOM alone (esbuild, minified)', stats: exact(reactAlone / 1024, options.runs) },
          budget: 200,
        },
        {
          group: title,
          name: `JS gzip for the replay route (${replay.files.length} files)`,
          unit: 'KB',
          ours: replay.stats,
          baseline: { name: 'React 19 + ReactDOM + rrweb-player alone', stats: exact(reactAndPlayer / 1024, options.runs) },
        },
      ];
    });
  });
}
