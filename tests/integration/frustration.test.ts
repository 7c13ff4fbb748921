import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insights } from '../../common/api/insights.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { info, makeCampaign, postBatch, serverWithOwner, sessionId, type TestEvent } from './ingest-support.js';

// Quick backs and excessive scrolling, derived at ingest (common/session-facts.ts), found by the
// list's filters and counted by the insights dashboard. Runs on PostgreSQL with TEST_DATABASE_URL.
let { server, owner } = {} as Awaited<ReturnType<typeof serverWithOwner>>;

beforeAll(async () => {
  ({ server, owner } = await serverWithOwner('Frustration Owner'));
});
afterAll(async () => server?.close());

async function get<T>(path: string, headers = owner.headers): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}
const ids = async (campaignId: string, query: string) =>
  (await get<SessionsResponse>(`/api/v1/streaming/sessions/${campaignId}/?${query}`)).sessions.map((s) => s.sessionId);

const move = (t: number): TestEvent => ({ type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] }, timestamp: t });
const meta = (t: number, path: string): TestEvent => ({ type: 4, data: { href: `https://shop.example.com${path}`, width: 1280, height: 720 }, timestamp: t });
const full = (t: number): TestEvent => ({ type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: t });
const scroll = (t: number, y: number): TestEvent => ({ type: 3, data: { source: 3, id: 1, x: 0, y }, timestamp: t });
const load = (t: number, path: string) => [meta(t, path), full(t + 1), move(t + 10)];

describe('quick backs and excessive scrolling', () => {
  it('are counted across batches, found by the filters, and shown by insights', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const [frustrated, calm] = [sessionId(), sessionId()];
    const t = Date.now() - 60_000;
    // Product → cart, and (next batch) back on the product 3 s after leaving it; scrolling back
    // and forth there, the burst split between the second and third batch.
    const ys = [0, 400, 800, 300, 900, 200, 800, 100];
    const scrolls = ys.map((y, i) => scroll(t + 13_000 + i * 300, y));
    const batches = [
      [...load(t, '/product'), ...load(t + 10_000, '/cart')],
      [...load(t + 13_000, '/product'), ...scrolls.slice(0, 4)],
      [...scrolls.slice(4), move(t + 16_000)],
    ];
    for (const [seq, events] of batches.entries()) {
      expect((await postBatch(server, campaignId, { sessionId: frustrated, seq, ...(seq ? {} : { info: info() }), events })).status).toBe(200);
    }
    const calmEvents = [
      ...load(t, '/product'),
      ...load(t + 10_000, '/cart'),
      ...load(t + 30_000, '/product'),
      scroll(t + 31_000, 600),
      scroll(t + 32_000, 1200),
    ];
    expect((await postBatch(server, campaignId, { sessionId: calm, seq: 0, info: info(), events: calmEvents })).status).toBe(200);

    const { sessions } = await get<SessionsResponse>(`/api/v1/streaming/sessions/${campaignId}/`);
    const byId = new Map(sessions.map((s) => [s.sessionId, s]));
    expect(byId.get(frustrated)).toMatchObject({ quickBackCount: 1, excessiveScrollCount: 1, pages: ['/product', '/cart', '/product'] });
    expect(byId.get(calm)).toMatchObject({ quickBackCount: 0, excessiveScrollCount: 0 });

    expect(await ids(campaignId, 'hasQuickBacks=true')).toEqual([frustrated]);
    expect(await ids(campaignId, 'hasExcessiveScrolling=true')).toEqual([frustrated]);
    expect((await ids(campaignId, '')).sort()).toEqual([frustrated, calm].sort());

    const range = `from=${t - 3_600_000}&to=${t + 3_600_000}`;
    const insights = await get<Insights>(`/api/v1/insights/${campaignId}?${range}`);
    expect(insights.frustration).toMatchObject({ quickBacks: 1, excessiveScrolls: 1, sessionsWithQuickBacks: 1, sessionsWithExcessiveScrolling: 1 });
    const filtered = await get<Insights>(`/api/v1/insights/${campaignId}?${range}&hasQuickBacks=true`);
    expect(filtered.totals.sessions).toBe(1);
  });

  it('refuses a filter value that is not true or false with a 400', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?hasExcessiveScrolling=maybe`, { headers: owner.headers });
    expect(response.status).toBe(400);
  });
});
