import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { info, makeCampaign, postBatch, serverWithStranger, sessionId } from './ingest-support.js';
import { clicks, full, meta, mutation, visitPage, type Visit } from './heatmaps-support.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import type { Heatmap, HeatmapClicks, HeatmapPages } from '../../common/api/heatmaps.js';

// Heatmaps over HTTP, on the database the run uses (TEST_DATABASE_URL for PostgreSQL): batches
// ingested as the tracker sends them, aggregated, read, and taken off again with their sessions.

let { server, owner, stranger } = {} as Awaited<ReturnType<typeof serverWithStranger>>;

beforeAll(async () => {
  ({ server, owner, stranger } = await serverWithStranger('Heat Owner', 'Heat Stranger'));
});
afterAll(async () => server?.close());

const visit = (campaignId: string, v: Visit) => visitPage(server, campaignId, v);
const get = (url: string, headers = owner.headers) => fetch(`${server.url}${url}`, { headers });
async function heatmap(campaignId: string, query: string): Promise<Heatmap> {
  const response = await get(`/api/v1/heatmaps/${campaignId}?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Heatmap;
}

/** Three visitors: desktop rage-clicks the button, tablet clicks it and dead-clicks a label, mobile clicks it. */
async function shop(): Promise<{ campaignId: string; desktop: string; tablet: string; mobile: string }> {
  const campaignId = await makeCampaign(server, { ownerId: owner.userId });
  const ids = { desktop: sessionId(), tablet: sessionId(), mobile: sessionId() };
  await visit(campaignId, { id: ids.desktop, width: 1280, at: [1000, 1200, 1400, 1600] });
  await visit(campaignId, { id: ids.tablet, width: 768, at: [1000], deadLabel: true });
  await visit(campaignId, { id: ids.mobile, width: 390, at: [1000] });
  return { campaignId, ...ids };
}

describe('GET /api/v1/heatmaps/:campaignId', () => {
  it('puts the button on top at each device class, with its rage and dead clicks in their layers', async () => {
    const { campaignId } = await shop();
    const desktop = await heatmap(campaignId, 'path=/product/1&device=desktop');
    expect(desktop).toMatchObject({
      path: '/product/1',
      device: 'desktop',
      views: 1,
      sessions: 1,
      clicks: 4,
      rageClicks: 1,
      deadClicks: 0,
      layerSessions: { rage: 1, dead: 0, error: 0 },
      averageFold: 50,
    });
    expect(desktop.elements[0]).toMatchObject({ selector: '#add', text: 'Add to cart', clicks: 4, rageClicks: 1, deadClicks: 0, fx: 0.5, fy: 0.5 });
    expect(desktop.bins).toEqual([{ x: 6, y: 10, clicks: 4, rageClicks: 1, deadClicks: 0, errorClicks: 0 }]);
    expect(desktop.scroll.map((s) => s.reached)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(desktop.snapshot?.timestamp).toBeGreaterThan(0);
    const tablet = await heatmap(campaignId, 'path=/product/1&device=tablet');
    expect(tablet.elements.map((e) => [e.selector, e.clicks, e.deadClicks])).toEqual([
      ['#add', 1, 0],
      ['form>label:nth-of-type(2)', 1, 1],
    ]);
    expect(tablet.layerSessions).toEqual({ rage: 0, dead: 1, error: 0 });
    const mobile = await heatmap(campaignId, 'path=/product/1&device=mobile');
    expect(mobile.elements[0]).toMatchObject({ selector: '#add', clicks: 1, rageClicks: 0 });
  });

  it("keeps an element's text when a later flush brings only its click's verdict", async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const start = Date.now() - 60_000;
    const label = 'form>label:nth-of-type(2)';
    const events = [meta(start, '/product/1', 768), full(start + 1), ...clicks(start + 1000, '/product/1', label, 'Size', 768)];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info({ url: 'https://shop.example.com/product/1' }), events })).status).toBe(
      200,
    );
    // Read (the read flushes): the click is stored with its text, its verdict not known yet.
    expect((await heatmap(campaignId, 'path=/product/1&device=tablet')).elements).toMatchObject([{ selector: label, text: 'Size', clicks: 1, deadClicks: 0 }]);
    // The next batch shows the page did nothing: the click was dead; that delta has no text.
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: [mutation(start + 25_000)] })).status).toBe(200);
    expect((await heatmap(campaignId, 'path=/product/1&device=tablet')).elements).toMatchObject([{ selector: label, text: 'Size', clicks: 1, deadClicks: 1 }]);
  });

  it('lists pages by views, and answers the busiest page when no path is given', async () => {
    const { campaignId } = await shop();
    await visit(campaignId, { id: sessionId(), width: 1280, path: '/cart', at: [500] });
    const response = await get(`/api/v1/heatmaps/${campaignId}/pages`);
    const body = (await response.json()) as HeatmapPages;
    expect(body.pages.map((p) => [p.path, p.views, p.devices])).toEqual([
      ['/product/1', 3, { desktop: 1, tablet: 1, mobile: 1 }],
      ['/cart', 1, { desktop: 1, tablet: 0, mobile: 0 }],
    ]);
    expect((await heatmap(campaignId, '')).path).toBe('/product/1');
  });

  it('lists the sessions that clicked an element, with the moment of their first click', async () => {
    const { campaignId, desktop, mobile } = await shop();
    const response = await get(`/api/v1/heatmaps/${campaignId}/clicks?path=/product/1&device=desktop&selector=${encodeURIComponent('#add')}`);
    const body = (await response.json()) as HeatmapClicks;
    expect(body.sessions).toEqual([
      { sessionId: desktop, startedAt: expect.any(Number), at: expect.any(Number), clicks: 4, rageClicks: 1, deadClicks: 0, errorClicks: 0 },
    ]);
    expect(body.sessions.map((s) => s.sessionId)).not.toContain(mobile);
  });

  it("times a clicker's first click from the recording's first event, where the replay's clock starts (not from when the server heard of it)", async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    // The visitor's clock: the page opened 90 s ago, the button was clicked 7 s in; the batch arrives now.
    const start = Date.now() - 90_000;
    await visitPage(server, campaignId, { id, width: 1280, at: [7000] }, start);
    const response = await get(`/api/v1/heatmaps/${campaignId}/clicks?path=/product/1&device=desktop&selector=${encodeURIComponent('#add')}`);
    const [clicker] = ((await response.json()) as HeatmapClicks).sessions;
    // (The click record follows rrweb's click by a millisecond.)
    expect(clicker).toMatchObject({ sessionId: id, startedAt: start, at: start + 7001 });
  });

  it('filters by date range', async () => {
    const { campaignId } = await shop();
    const later = Date.now() + 2 * 86_400_000;
    expect((await heatmap(campaignId, `path=/product/1&device=desktop&from=${later}&to=${later + 86_400_000}`)).clicks).toBe(0);
  });

  it("groups paths under the owner's patterns from then on", async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const put = await fetch(`${server.url}/api/v1/heatmaps/${campaignId}/patterns`, {
      method: 'PUT',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ patterns: ['/product/*'] }),
    });
    expect(put.status).toBe(200);
    await visit(campaignId, { id: sessionId(), width: 1280, path: '/product/7', at: [500] });
    await visit(campaignId, { id: sessionId(), width: 1280, path: '/product/8', at: [500] });
    const pages = (await (await get(`/api/v1/heatmaps/${campaignId}/pages`)).json()) as HeatmapPages;
    expect(pages.pages.map((p) => [p.path, p.views, p.clicks])).toEqual([['/product/*', 2, 2]]);
    expect(await (await get(`/api/v1/heatmaps/${campaignId}/patterns`)).json()).toEqual({ patterns: ['/product/*'] });
  });
});

describe('heatmaps: ownership and bounds', () => {
  it('answers 404 to someone outside the workspace, as for an unknown campaign, and 400 for a bad id', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    expect((await get(`/api/v1/heatmaps/${campaignId}`, stranger.headers)).status).toBe(404);
    expect((await get(`/api/v1/heatmaps/${campaignId}/pages`, stranger.headers)).status).toBe(404);
    expect((await get(`/api/v1/heatmaps/${campaignId}/patterns`, stranger.headers)).status).toBe(404);
    expect((await get(`/api/v1/heatmaps/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await get('/api/v1/heatmaps/not-a-campaign')).status).toBe(400);
    expect((await fetch(`${server.url}/api/v1/heatmaps/${campaignId}`)).status).toBe(401);
  });

  it('refuses a bad device, range, path, selector or pattern with a reason', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    for (const query of ['device=phone', 'from=10&to=5', `from=0&to=${400 * 86_400_000}`, `path=${'a'.repeat(301)}`, 'from=-1']) {
      const response = await get(`/api/v1/heatmaps/${campaignId}?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toBeTruthy();
    }
    expect((await get(`/api/v1/heatmaps/${campaignId}/clicks?path=/&device=desktop`)).status).toBe(400);
    const put = (patterns: unknown) =>
      fetch(`${server.url}/api/v1/heatmaps/${campaignId}/patterns`, {
        method: 'PUT',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ patterns }),
      });
    expect((await put(['product/*'])).status).toBe(400);
    expect((await put(Array.from({ length: 51 }, (_, i) => `/p${i}`))).status).toBe(400);
    const starry = await put(['/ok', `/${'*a'.repeat(40)}`]);
    expect(starry.status).toBe(400);
    expect(((await starry.json()) as { error: string }).error).toBe(`A page pattern has at most 10 stars (*): /${'*a'.repeat(40)}`);
  });

  it('keeps at most 200 elements per page, device class and day; every click still counts on the page', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const start = Date.now() - 120_000;
    for (let i = 0; i < 7; i++) {
      const events: { type: number; data: object; timestamp: number }[] = [meta(start, '/', 1280), full(start + 1)];
      // 2 s apart: never a rage burst.
      for (let j = 0; j < 30; j++) events.push(...clicks(start + 10 + j * 2000, '/', `#e-${i}-${j}`, `E ${i} ${j}`, 1280), mutation(start + 100 + j * 2000));
      expect((await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events })).status).toBe(200);
    }
    const body = await heatmap(campaignId, 'path=/&device=desktop');
    expect(body.clicks).toBe(210);
    expect(body.elements).toHaveLength(100);
    const kept = await server.db.selectFrom('heatmap_elements').select('selector').where('campaign_id', '=', campaignId).execute();
    expect(kept).toHaveLength(200);
  });

  it('refuses a click record out of shape at ingest', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const bad = {
      type: 5,
      data: { tag: 'tapedeck/click', payload: { p: '/', s: 'x'.repeat(501), t: '', fx: 2, fy: 0, x: 0, y: 0, w: 1, h: 1 } },
      timestamp: Date.now(),
    };
    const response = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, events: [bad] });
    expect(response.status).toBe(400);
  });
});

describe('heatmaps: deletion and retention take off what a session fed', () => {
  it('a deleted session leaves the aggregates as if it never came', async () => {
    const { campaignId, desktop } = await shop();
    const other = sessionId();
    await visit(campaignId, { id: other, width: 1280, at: [700] });
    expect((await heatmap(campaignId, 'path=/product/1&device=desktop')).clicks).toBe(5);
    const deleted = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/${desktop}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBeLessThan(300);
    const after = await heatmap(campaignId, 'path=/product/1&device=desktop');
    expect(after).toMatchObject({ views: 1, sessions: 1, clicks: 1, rageClicks: 0, layerSessions: { rage: 0, dead: 0, error: 0 } });
    expect(after.elements).toEqual([expect.objectContaining({ selector: '#add', clicks: 1, rageClicks: 0 })]);
    expect(after.snapshot?.sessionId).toBe(other);
  });

  it('retention removes every aggregate the expired sessions fed', async () => {
    const { campaignId } = await shop();
    await server.db.updateTable('campaigns').set({ retention_days: 1 }).where('id', '=', campaignId).execute();
    await get(`/api/v1/heatmaps/${campaignId}`); // written before the sweep
    await sweepExpiredRecordings(server.db, { now: Date.now() + 3 * 86_400_000 });
    const pages = (await (await get(`/api/v1/heatmaps/${campaignId}/pages`)).json()) as HeatmapPages;
    expect(pages.pages).toEqual([]);
    for (const table of ['heatmap_pages', 'heatmap_elements', 'heatmap_bins', 'heatmap_scroll', 'heatmap_feeds'] as const) {
      expect(await server.db.selectFrom(table).select('campaign_id').where('campaign_id', '=', campaignId).execute(), table).toEqual([]);
    }
  });

  it("a campaign's deletion leaves none of its heat", async () => {
    const { campaignId } = await shop();
    await get(`/api/v1/heatmaps/${campaignId}`);
    const deleted = await fetch(`${server.url}/api/v1/campaign/delete/${campaignId}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBeLessThan(300);
    for (const table of ['heatmap_pages', 'heatmap_elements', 'heatmap_bins', 'heatmap_scroll', 'heatmap_feeds'] as const) {
      expect(await server.db.selectFrom(table).select('campaign_id').where('campaign_id', '=', campaignId).execute(), table).toEqual([]);
    }
  });
});
