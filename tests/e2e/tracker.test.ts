import { gunzipSync } from 'node:zlib';
import { minify } from 'terser';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { fillLoader } from '../../common/loader-script.js';
import type { ReplayEvent, ReplayResponse, SessionsResponse } from '../../common/api-types.js';
import { makeCampaign, storedCounts } from '../integration/ingest-support.js';
import { PAGE_SECRETS, TYPED, flushRecorder, recorderRunning, shopAtCheckout, useVisitorRig } from './tracker-site.js';
import { until } from './step.js';
import { chunkLayout, eventsJson } from '../../server/storage/chunk-codec.js';

interface Stored {
  events: ReplayEvent[];
  raw: string;
  /** Chunks that are the tracker's gzip body as it arrived (not re-serialised by ingest). */
  kept: number;
}

/** Every chunk of the campaign, decompressed: the events in order and the raw JSON text. */
async function storedEvents(server: TestServer, campaignId: string): Promise<Stored> {
  const rows = await server.db.selectFrom('chunks').select(['data']).where('campaign_id', '=', campaignId).orderBy('session_id').orderBy('seq').execute();
  const stored = rows.map((row) => gunzipSync(row.data));
  // A chunk is an events array or the batch as it arrived (server/storage/chunk-codec.ts).
  const events = stored.flatMap((json) => JSON.parse(eventsJson(json).toString('utf8')) as ReplayEvent[]);
  return { events, raw: stored.join('\n'), kept: stored.filter((json) => chunkLayout(json) === 'batch as received').length };
}

const source = (e: ReplayEvent) => (e.data as { source?: number; type?: number }).source;

describe.skipIf(!hasChromium)('the tracker in a real browser', () => {
  const rig = useVisitorRig({}, { tracker: 'alone' });

  /** The downloaded magicFormat-{id}.js: fetched, filled in and minified as the dashboard does. */
  async function downloadedScript(campaignId: string): Promise<string> {
    const template = await (await fetch(`${rig.server.url}/static/magicFormat.js`)).text();
    const filled = fillLoader(template, campaignId, rig.server.url);
    return (await minify(filled, { compress: true, mangle: true })).code ?? filled;
  }

  it('records a visit across two pages with every input masked', async () => {
    const owner = await userSession(rig.server, 'Site Owner');
    const campaignId = await makeCampaign(rig.server, { ownerId: owner.userId, domains: `127.0.0.1:${rig.site.port}` });
    const file = `/magicFormat-${campaignId}.js`;
    rig.site.install(`<script src="${file}"></script>`, { [file]: await downloadedScript(campaignId) });

    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 720 } });
    // Counts iframes put into the page: the recorder must not insert any (rrweb's own one is patched out).
    await context.addInitScript(() => {
      const w = window as unknown as { iframesAdded: number };
      w.iframesAdded = 0;
      new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => n.nodeName === 'IFRAME' && w.iframesAdded++))).observe(document, {
        childList: true,
        subtree: true,
      });
    });
    const page = await context.newPage();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    // Arriving from a newsletter: the entry page's UTM parameters go with the first batch, the address keeps no query.
    await page.goto(`${rig.site.url}/checkout.html?utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale&id=4711`);
    await recorderRunning(page);
    expect(await page.evaluate(() => (window as unknown as { iframesAdded: number }).iframesAdded)).toBe(0);
    await shopAtCheckout(page, rig.site.url);
    await recorderRunning(page);
    await page.click('#done');
    await flushRecorder(page);

    const stored = await until('both pages and both clicks stored', async () => {
      const s = await storedEvents(rig.server, campaignId);
      const snapshots = s.events.filter((e) => e.type === 2).length;
      return snapshots >= 2 && s.raw.includes('thanks.html') && s;
    });
    await context.close();
    // Each page packed its batches (masking, time zone, gzip) in a worker of its own.
    expect(workers).toHaveLength(2);
    // Ingest stored the pages' own gzip bodies as they arrived.
    expect(stored.kept).toBeGreaterThan(0);
    for (const url of workers) expect(url).toMatch(/^blob:/);

    // The session lists with the right fields, from the sessions API.
    // The tab's close sends one batch more (tapedeck/hidden judges the last click), so the row is read against all that was stored.
    let all = stored;
    const listed = await until('the session row to catch up', async () => {
      const res = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
      const body = (await res.json()) as SessionsResponse;
      all = await storedEvents(rig.server, campaignId);
      return body.sessions.length === 1 && body.sessions[0].pageCount === 2 && body.sessions[0].eventCount === all.events.length && body;
    });
    const session = listed.sessions[0];
    expect(session).toMatchObject({
      remoteIpAddress: '127.0.0.1',
      entryUrl: `${rig.site.url}/checkout.html`,
      os: 'Linux',
      device: 'desktop',
      pageCount: 2,
      webdriver: true,
      isBot: true,
      botReason: 'Automated browser: navigator.webdriver is true',
      cookiesEnabled: true,
    });
    expect(session.browser).toMatch(/^Chrom/);
    expect(session.userAgent).toContain('Chrome');
    expect(session.language).toBeTruthy();
    expect(session.timezone).toBeTruthy();
    expect(session.hardwareConcurrency).toBeGreaterThan(0);
    expect(session.eventCount).toBe(all.events.length);
    expect(session.byteCount).toBeGreaterThan(1000);
    expect(listed.counts).toEqual({ total: 1, human: 0, bot: 1 });
    const utm = await rig.server.db
      .selectFrom('sessions')
      .select(['utm_source', 'utm_medium', 'utm_campaign'])
      .where('campaign_id', '=', campaignId)
      .executeTakeFirstOrThrow();
    expect(utm).toEqual({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring sale' });

    // A full snapshot per page, the clicks, the scroll and the (masked) inputs.
    const metas = stored.events.filter((e) => e.type === 4).map((e) => (e.data as { href: string }).href);
    expect(metas).toEqual([`${rig.site.url}/checkout.html`, `${rig.site.url}/thanks.html`]);
    expect(stored.events.filter((e) => e.type === 2)).toHaveLength(2);
    const clicks = stored.events.filter((e) => e.type === 3 && source(e) === 2 && (e.data as { type: number }).type === 2);
    expect(clicks.length).toBeGreaterThanOrEqual(6);
    expect(stored.events.some((e) => e.type === 3 && source(e) === 3)).toBe(true);
    const inputs = stored.events.filter((e) => e.type === 3 && source(e) === 5).map((e) => (e.data as { text: string }).text);
    expect(inputs.length).toBeGreaterThanOrEqual(4);
    for (const text of inputs) expect(text).toMatch(/^\**$/);

    // The replay API hands the same events back, in order, with the session info.
    const replay = (await (
      await fetch(`${rig.server.url}/api/v1/replay/retrieve/${campaignId}/${session.sessionId}`, { headers: owner.headers })
    ).json()) as ReplayResponse;
    expect(replay.events).toEqual(all.events);
    expect(replay.init).toMatchObject({ remoteIpAddress: '127.0.0.1', webdriver: true, userAgent: session.userAgent });

    // None of what was typed — nor prefilled, placeholder, blocked or masked text — anywhere.
    for (const secret of [...Object.values(TYPED), ...PAGE_SECRETS]) expect(stored.raw).not.toContain(secret);
    for (const part of ['SECRET', 'qzxa', 'wvjb', 'kfyc', 'hgud']) expect(stored.raw).not.toContain(part);
  });

  it("packs on the page, masked and compressed, where the site's CSP forbids workers", async () => {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port}` });
    rig.site.install(`<script src="/csp.js"></script>`, { '/csp.js': await downloadedScript(campaignId) }, { 'content-security-policy': "worker-src 'none'" });
    const context = await rig.browser.newContext();
    const page = await context.newPage();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    const sizes: Promise<number>[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/ingest/') && r.method() === 'POST') sizes.push(r.allHeaders().then((h) => Number(h['content-length'])));
    });
    await page.goto(`${rig.site.url}/checkout.html`);
    await recorderRunning(page);
    await page.click('#email');
    await page.keyboard.type(TYPED.email);
    await page.click('#buy');
    await flushRecorder(page);
    const stored = await until('the typing stored', async () => {
      const s = await storedEvents(rig.server, campaignId);
      return s.events.some((e) => e.type === 3 && source(e) === 5) && s;
    });
    await context.close();
    expect(workers).toEqual([]);
    // Compressed all the same: what was sent is a fraction of the JSON stored.
    const sent = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(stored.raw.length / 3);
    expect(stored.events.filter((e) => e.type === 2)).toHaveLength(1);
    for (const secret of [TYPED.email, ...PAGE_SECRETS]) expect(stored.raw).not.toContain(secret);
  });

  it('stops recording a page past the mutation budget and records why', async () => {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port}` });
    rig.site.install(`<script src="/storm.js"></script>`, { '/storm.js': await downloadedScript(campaignId) });
    const context = await rig.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${rig.site.url}/storm.html`);
    await recorderRunning(page);
    await page.click('#storm');
    await page.waitForFunction(() => document.querySelectorAll('span').length === 12000);
    await page.click('#after');
    await flushRecorder(page);
    const stored = await until('the stop note', async () => {
      const s = await storedEvents(rig.server, campaignId);
      return s.raw.includes('mutation budget') && s;
    });
    await context.close();
    // Tapedeck's own note (the heatmap's click and scroll records are custom events too).
    const note = stored.events.find((e) => e.type === 5 && (e.data as { tag?: unknown }).tag === 'tapedeck');
    expect(note?.data).toEqual({ tag: 'tapedeck', payload: { stopped: 'mutation budget: over 10000 DOM changes in one second' } });
    // Nothing after the stop: the click on "After" came once recording had ended.
    const last = stored.events[stored.events.length - 1];
    expect(last).toBe(note);
  });

  it('sends a full snapshot far over the batch size whole', async () => {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port}` });
    rig.site.install(`<script src="/big.js"></script>`, { '/big.js': await downloadedScript(campaignId) });
    const context = await rig.browser.newContext();
    // A Tapedeck cookie in the visitor's browser must never travel with a batch.
    await context.addCookies([{ name: 'td_access', value: 'visitor-cookie', url: rig.server.url }]);
    const page = await context.newPage();
    const sent: { cookie?: string; length: number }[] = [];
    page.on('request', async (r) => {
      if (!r.url().includes('/api/v1/ingest/') || r.method() !== 'POST') return;
      const headers = await r.allHeaders();
      sent.push({ cookie: headers.cookie, length: Number(headers['content-length']) });
    });
    await page.goto(`${rig.site.url}/big.html`);
    await recorderRunning(page);
    await flushRecorder(page);
    const stored = await until('the big snapshot', async () => {
      const s = await storedEvents(rig.server, campaignId);
      return s.raw.includes('END-OF-CATALOGUE') && s;
    });
    await context.close();
    const snapshot = stored.events.find((e) => e.type === 2) as ReplayEvent;
    expect(JSON.stringify(snapshot).length).toBeGreaterThan(2 * 512 * 1024);
    expect(JSON.stringify(snapshot)).toContain('Item 19999: a sturdy thing');
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.map((r) => r.cookie)).toEqual(sent.map(() => undefined));
    // Compressed in the page: the largest request is a fraction of the snapshot's JSON.
    expect(Math.max(...sent.map((r) => r.length))).toBeLessThan(JSON.stringify(snapshot).length / 4);
  });

  it('stops for the tab when ingest refuses it (session limit reached)', async () => {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port}`, limit: 1 });
    rig.site.install(`<script src="/limited.js"></script>`, { '/limited.js': await downloadedScript(campaignId) });
    const visit = async () => {
      const context = await rig.browser.newContext();
      const page = await context.newPage();
      const answer = page.waitForResponse((r) => r.url().includes('/api/v1/ingest/') && r.request().method() === 'POST');
      await page.goto(`${rig.site.url}/checkout.html`);
      await recorderRunning(page);
      await page.click('#buy');
      await flushRecorder(page);
      return { context, page, response: await answer };
    };
    const first = await visit();
    expect(first.response.status()).toBe(200);
    await first.context.close();
    // Its tab closing sends one batch more: the page went away after a click (tapedeck/hidden).
    await until("the first tab's closing batch", async () => (await storedCounts(rig.server, campaignId)).chunks === 2);

    const second = await visit();
    expect(second.response.status()).toBe(403);
    expect(second.response.headers()['access-control-allow-origin']).toBe(rig.site.url);
    // The tab remembers: its next page does not record or ask again.
    await second.page.waitForFunction(() => JSON.parse(sessionStorage.getItem('tapedeck') ?? '{}').off === 1);
    const asked: string[] = [];
    second.page.on('request', (r) => r.url().includes('/api/v1/ingest/') && asked.push(r.url()));
    await second.page.click('#next');
    await second.page.waitForURL(`${rig.site.url}/thanks.html`, { waitUntil: 'load' });
    await second.page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/static/recorder.js')));
    await second.page.click('#done');
    expect(await second.page.evaluate(() => typeof (window as { tapedeck?: { flush?: unknown } }).tapedeck?.flush)).toBe('undefined');
    await second.context.close();
    expect(asked).toEqual([]);
    expect(await storedCounts(rig.server, campaignId)).toEqual({ sessions: 1, chunks: 2 });
  });

  it('records nothing on a site whose domain the campaign does not list', async () => {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port + 1}, shop.example.com` });
    // The hosted one-line install this time.
    rig.site.install(`<script async src="${rig.server.url}/t/${campaignId}.js"></script>`);
    const context = await rig.browser.newContext();
    const page = await context.newPage();
    // The recorder first reads the campaign's rules; the browser blocks the answer (no CORS for
    // this origin), so the request fails for the page and the recorder never starts.
    const refused = page.waitForEvent('requestfailed', { predicate: (r) => r.url().includes('/api/v1/ingest/') && r.method() === 'GET' });
    const posts: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/ingest/') && r.method() === 'POST' && posts.push(r.url()));
    await page.goto(`${rig.site.url}/checkout.html`);
    expect((await refused).failure()?.errorText).toBeTruthy();
    await page.click('#buy');
    expect(await page.evaluate(() => typeof (window as { tapedeck?: { flush?: unknown } }).tapedeck?.flush)).toBe('undefined');
    await context.close();
    expect(posts).toEqual([]);
    expect(await storedCounts(rig.server, campaignId)).toEqual({ sessions: 0, chunks: 0 });
  });

  it.each([
    ['Global Privacy Control', 'globalPrivacyControl', true],
    ['Do-Not-Track', 'doNotTrack', '1'],
  ] as const)('loads, records and sends nothing when the visitor has %s on', async (_name, property, value) => {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port}` });
    rig.site.install(`<script src="/optout.js"></script>`, { '/optout.js': await downloadedScript(campaignId) });
    const context = await rig.browser.newContext();
    await context.addInitScript(([name, answer]) => Object.defineProperty(Navigator.prototype, name, { get: () => answer, configurable: true }), [
      property,
      value,
    ] as const);
    const page = await context.newPage();
    const toServer: string[] = [];
    page.on('request', (request) => request.url().startsWith(rig.server.url) && toServer.push(request.url()));
    await page.goto(`${rig.site.url}/checkout.html`, { waitUntil: 'load' });
    await page.click('#buy');
    await page.click('#email');
    await page.keyboard.type(TYPED.email);
    await page.click('#next');
    await page.waitForURL(`${rig.site.url}/thanks.html`, { waitUntil: 'load' });
    // The page's API is there and safe to call (its calls go nowhere), the recorder's settings are not.
    const global = await page.evaluate(() => {
      const tapedeck = (window as unknown as { tapedeck: Record<string, (...args: unknown[]) => void> }).tapedeck;
      tapedeck.identify('customer-4711', { plan: 'pro' });
      tapedeck.event('signup');
      return { flush: typeof tapedeck.flush, settings: 'campaignId' in tapedeck };
    });
    expect(global).toEqual({ flush: 'undefined', settings: false });
    expect(await page.evaluate(() => document.querySelectorAll('script[src*="recorder.js"]').length)).toBe(0);
    await context.close();
    expect(toServer).toEqual([]);
    expect(await storedCounts(rig.server, campaignId)).toEqual({ sessions: 0, chunks: 0 });
  });
});
