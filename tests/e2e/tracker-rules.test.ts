import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import type { ReplayEvent } from '../../common/api-types.js';
import type { CampaignsTable } from '../../server/db/schema.js';
import type { Insertable } from 'kysely';
import { makeCampaign, storedCounts } from '../integration/ingest-support.js';
import { flushRecorder, recorderRunning, useVisitorRig } from './tracker-site.js';
import { until } from './step.js';
import { eventsJson } from '../../server/storage/chunk-codec.js';
import { sampled } from '../../common/recording-rules.js';

// A campaign's recording rules in a real browser: what its privacy preset and blocked elements
// keep out of storage, and that under consent nothing reaches ingest before the visitor agrees.

/** Words of the page: under the strict preset none of them may be stored. */
const WORDS = ['TITLE-ELEMENT-HOTEL', 'HEADLINE-ALPHA', 'PARAGRAPH-BRAVO', 'ALT-CHARLIE', 'TITLE-ATTR-DELTA', 'LABEL-KILO', 'BUTTON-GOLF', 'LATER-INDIA'];
const BLOCKED = ['ALWAYS-BLOCKED-ECHO', 'CAMPAIGN-BLOCKED-FOXTROT'];

const rulesPage = (tag: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>TITLE-ELEMENT-HOTEL</title>${tag}</head>
<body>
<h1>HEADLINE-ALPHA</h1>
<p title="TITLE-ATTR-DELTA">PARAGRAPH-BRAVO, write to ada@example.com, card 4111 1111 1111 1111</p>
<img alt="ALT-CHARLIE" width="40" height="30" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button id="more" type="button" aria-label="LABEL-KILO">BUTTON-GOLF</button>
<script>
  document.getElementById('more').addEventListener('click', function () { var p = document.createElement('p'); p.textContent = 'LATER-INDIA'; document.body.appendChild(p); });
</script>
<div data-td-block>ALWAYS-BLOCKED-ECHO</div>
<div class="campaign-secret">CAMPAIGN-BLOCKED-FOXTROT</div>
<a id="next" href="/rules-next.html">Next</a>
</body></html>`;
const nextPage = (tag: string) =>
  `<!doctype html><html><head><meta charset="utf-8">${tag}</head><body><button id="again" type="button">Again</button></body></html>`;

describe.skipIf(!hasChromium)('recording rules in a real browser', () => {
  const rig = useVisitorRig({ '/rules.html': rulesPage, '/rules-next.html': nextPage }, { tracker: 'alone' });

  /** Every chunk of the campaign decompressed, as the database holds it. */
  async function stored(campaignId: string): Promise<{ events: ReplayEvent[]; raw: string }> {
    const rows = await rig.server.db.selectFrom('chunks').select('data').where('campaign_id', '=', campaignId).orderBy('seq').execute();
    const json = rows.map((row) => gunzipSync(row.data));
    return { events: json.flatMap((text) => JSON.parse(eventsJson(text).toString('utf8')) as ReplayEvent[]), raw: json.join('\n') };
  }

  /** A campaign for the test site with these rules, installed with the hosted one-line tag. */
  async function campaignWith(columns: Partial<Insertable<CampaignsTable>>): Promise<string> {
    const campaignId = await makeCampaign(rig.server, { domains: `127.0.0.1:${rig.site.port}`, columns });
    rig.site.install(`<script async src="${rig.server.url}/t/${campaignId}.js"></script>`);
    return campaignId;
  }

  /** A visitor's page, with the batches it posts to ingest counted. */
  async function visit(address = '/rules.html'): Promise<{ page: Page; posts: string[]; close: () => Promise<void> }> {
    const context = await rig.browser.newContext();
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/ingest/') && r.method() === 'POST' && posts.push(r.url()));
    await page.goto(`${rig.site.url}${address}`);
    await recorderRunning(page);
    return { page, posts, close: () => context.close() };
  }

  /** Recorded a while and sent: the click's new text stored. */
  async function clickAndStore(page: Page, campaignId: string) {
    // Blocked elements are clicked too: a heatmap's click record must not carry their text either.
    await page.click('[data-td-block]', { force: true });
    await page.click('.campaign-secret', { force: true });
    await page.click('#more');
    await flushRecorder(page);
    return until('the click stored', async () => {
      const s = await stored(campaignId);
      return s.events.some((e) => e.type === 3 && (e.data as { source?: number }).source === 0) && s;
    });
  }

  it('stores no text of the page under the strict preset', async () => {
    const campaignId = await campaignWith({ privacy: 'strict' });
    const { page, close } = await visit();
    const { events, raw } = await clickAndStore(page, campaignId);
    await close();
    expect(events.filter((e) => e.type === 2)).toHaveLength(1);
    for (const word of [...WORDS, ...BLOCKED, 'ada@example.com', '4111']) expect(raw, word).not.toContain(word);
    // The picture is a same-size placeholder (rrweb's rr_width and rr_height), never its source or words.
    expect(raw).toMatch(/"tagName":"img","attributes":\{"rr_width":"[\d.]+px","rr_height":"[\d.]+px"\}/);
    expect(raw).not.toContain('R0lGODlh');
  });

  it('stores no text of a blocked element, masks e-mails and long numbers, and keeps the query string the campaign asks for', async () => {
    const campaignId = await campaignWith({ block_selector: '.campaign-secret', keep_query: 1 });
    const { page, close } = await visit('/rules.html?q=shoes&token=abc#top');
    const { events, raw } = await clickAndStore(page, campaignId);
    await close();
    for (const word of BLOCKED) expect(raw, word).not.toContain(word);
    for (const word of ['HEADLINE-ALPHA', 'PARAGRAPH-BRAVO', 'ALT-CHARLIE', 'LATER-INDIA']) expect(raw, word).toContain(word);
    expect(raw).toContain('write to [email], card **** **** **** ****');
    expect(events.find((e) => e.type === 4)?.data).toMatchObject({ href: `${rig.site.url}/rules.html?q=shoes&token=*` });
  });

  it('pauses on a page the campaign does not record and records again on one it does', async () => {
    const campaignId = await campaignWith({ url_exclude: '/rules-next*' });
    const { page, close } = await visit();
    await page.click('#more');
    await page.click('#next');
    await page.waitForURL(`${rig.site.url}/rules-next.html`);
    const leftAt = Date.now();
    await recorderRunning(page);
    await page.click('#again');
    await flushRecorder(page);
    const backAt = Date.now();
    // Back on a recorded page (as a single-page app would go, without a page load): recording resumes.
    await page.evaluate(() => history.pushState(null, '', '/rules.html'));
    const { events } = await until('the page recorded again', async () => {
      await flushRecorder(page);
      const s = await stored(campaignId);
      return s.events.filter((e) => e.type === 4).length === 2 && s;
    });
    await close();
    expect(events.filter((e) => e.type === 4).map((e) => (e.data as { href: string }).href)).toEqual([
      `${rig.site.url}/rules.html`,
      `${rig.site.url}/rules.html`,
    ]);
    // Nothing from the time on the page not recorded (the click there included).
    expect(events.filter((e) => e.timestamp >= leftAt && e.timestamp < backAt)).toEqual([]);
  });

  it('records a session of the sample whole and one outside it not at all, page after page', async () => {
    const campaignId = await campaignWith({ sample_rate: 50 });
    const ids = Array.from({ length: 100 }, (_, i) => `sampled-session-${i}`);
    const [inside, outside] = [ids.find((id) => sampled(id, 50)) as string, ids.find((id) => !sampled(id, 50)) as string];
    const visitAs = async (id: string) => {
      const context = await rig.browser.newContext();
      // The tab's session as the recorder keeps it, set before the first page.
      await context.addInitScript(
        (sessionId) =>
          sessionStorage.getItem('tapedeck') ?? sessionStorage.setItem('tapedeck', JSON.stringify({ id: sessionId, seq: 0, last: Date.now() - 60_000 })),
        id,
      );
      const page = await context.newPage();
      const posts: string[] = [];
      page.on('request', (r) => r.url().includes('/api/v1/ingest/') && r.method() === 'POST' && posts.push(r.url()));
      // The recorder decided (and kept the session for the tab) once it moved the time of its last use.
      const decided = () => page.waitForFunction(() => Date.now() - JSON.parse(sessionStorage.getItem('tapedeck') ?? '{}').last < 30_000);
      await page.goto(`${rig.site.url}/rules.html`);
      await decided();
      await page.click('#more');
      const rulesRead = page.waitForResponse((r) => r.url().includes('/api/v1/ingest/') && r.request().method() === 'GET');
      await page.click('#next');
      await rulesRead;
      await page.click('#again');
      await page.evaluate(() => (window as unknown as { tapedeck: { flush?(): void } }).tapedeck.flush?.());
      const state = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tapedeck') as string) as { id: string });
      return { posts, state, close: () => context.close() };
    };
    const out = await visitAs(outside);
    await out.close();
    expect([out.posts, out.state.id]).toEqual([[], outside]);
    const kept = await visitAs(inside);
    await until('both pages stored', async () => (await stored(campaignId)).events.filter((e) => e.type === 4).length === 2);
    await kept.close();
    const sessions = await rig.server.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute();
    expect(sessions).toEqual([{ id: inside }]);
  });

  it('sends nothing before consent, then the visit from the moment it is given', async () => {
    const campaignId = await campaignWith({ consent: 'required' });
    const { page, posts, close } = await visit();
    await page.click('#more');
    await flushRecorder(page);
    // Another page of the tab: leaving one sends what it holds (none here), the next asks again.
    await page.click('#next');
    await page.waitForURL(`${rig.site.url}/rules-next.html`);
    await recorderRunning(page);
    await page.click('#again');
    await flushRecorder(page);
    expect(posts).toEqual([]);
    expect(await storedCounts(rig.server, campaignId)).toEqual({ sessions: 0, chunks: 0 });

    const consentAt = Date.now();
    const answer = page.waitForResponse((r) => r.url().includes('/api/v1/ingest/') && r.request().method() === 'POST');
    await page.evaluate(() => (window as unknown as { tapedeck: { consent(granted: boolean): void } }).tapedeck.consent(true));
    await page.click('#again');
    await flushRecorder(page);
    expect((await answer).status()).toBe(200);
    expect(posts.every((url) => url.endsWith('?consent=1'))).toBe(true);
    const { events } = await until('the consented visit stored', async () => (await storedCounts(rig.server, campaignId)).chunks > 0 && stored(campaignId));
    await close();
    expect(events.every((e) => e.timestamp >= consentAt)).toBe(true);
  });

  it('sends what it held in memory once the visitor agrees, and never stores a visitor who refuses', async () => {
    const held = await campaignWith({ consent: 'required', consent_buffer_seconds: 30 });
    const agrees = await visit();
    await agrees.page.click('#more');
    await flushRecorder(agrees.page);
    expect(agrees.posts).toEqual([]);
    const consentAt = Date.now();
    await agrees.page.evaluate(() => (window as unknown as { tapedeck: { consent(granted: boolean): void } }).tapedeck.consent(true));
    await flushRecorder(agrees.page);
    const { events } = await until('the held events stored', async () => (await storedCounts(rig.server, held)).chunks > 0 && stored(held));
    await agrees.close();
    // The click before consent (its new paragraph) came from memory.
    expect(events.some((e) => e.timestamp < consentAt && e.type === 3 && (e.data as { source?: number }).source === 0)).toBe(true);

    const refused = await campaignWith({ consent: 'required', consent_buffer_seconds: 30 });
    const refuses = await visit();
    await refuses.page.click('#more');
    await refuses.page.evaluate(() => (window as unknown as { tapedeck: { consent(granted: boolean): void } }).tapedeck.consent(false));
    await refuses.page.click('#more');
    await flushRecorder(refuses.page);
    await refuses.page.click('#next');
    await refuses.page.waitForURL(`${rig.site.url}/rules-next.html`);
    await recorderRunning(refuses.page);
    await refuses.page.click('#again');
    await flushRecorder(refuses.page);
    await refuses.close();
    expect(refuses.posts).toEqual([]);
    expect(await storedCounts(rig.server, refused)).toEqual({ sessions: 0, chunks: 0 });
  });
});
