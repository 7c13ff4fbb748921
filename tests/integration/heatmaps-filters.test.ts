import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCampaign, serverWithStranger, sessionId } from './ingest-support.js';
import { visitPage } from './heatmaps-support.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import { filteredHeatmap } from '../../server/heatmaps/filtered.js';
import { plainRead } from '../../server/db/sliced-read.js';
import type { Heatmap, HeatmapClicks } from '../../common/api/heatmaps.js';

// A heatmap narrowed by the sessions list's filters, over HTTP on the database the run uses
// (TEST_DATABASE_URL for PostgreSQL): the clicks and elements are exactly the matching sessions'.

let { server, owner, stranger } = {} as Awaited<ReturnType<typeof serverWithStranger>>;

beforeAll(async () => {
  ({ server, owner, stranger } = await serverWithStranger('Heat Filter Owner', 'Heat Filter Stranger'));
});
afterAll(async () => server?.close());

const get = (url: string, headers = owner.headers) => fetch(`${server.url}${url}`, { headers });
async function heatmap(campaignId: string, query: string): Promise<Heatmap> {
  const response = await get(`/api/v1/heatmaps/${campaignId}?path=/product/1&device=desktop&${query}`);
  expect(response.status, query).toBe(200);
  return (await response.json()) as Heatmap;
}
const elements = (map: Heatmap) => map.elements.map((e) => [e.selector, e.clicks, e.rageClicks, e.deadClicks]);
const custom = (tag: string, payload: unknown, timestamp: number) => ({ type: 5, data: { tag, payload }, timestamp });

/** Three desktop visitors: a human who rage-clicks, an identified human with a dead click, and a bot. */
async function shop(): Promise<{ campaignId: string; rager: string; known: string; bot: string }> {
  const campaignId = await makeCampaign(server, { ownerId: owner.userId });
  const ids = { rager: sessionId(), known: sessionId(), bot: sessionId() };
  await visitPage(server, campaignId, { id: ids.rager, width: 1280, at: [1000, 1200, 1400, 1600] });
  await visitPage(server, campaignId, {
    id: ids.known,
    width: 1280,
    at: [1000],
    deadLabel: true,
    extra: (t) => [custom(PEOPLE_TAGS.identify, { userId: 'customer-4711' }, t), custom(PEOPLE_TAGS.event, { name: 'signup' }, t + 1)],
  });
  await visitPage(server, campaignId, { id: ids.bot, width: 1280, at: [1000, 1100], info: { webdriver: true } });
  return { campaignId, ...ids };
}

describe('GET /api/v1/heatmaps/:campaignId with the list filters', () => {
  it('counts only the matching sessions: type, rage clicks, user, event', async () => {
    const { campaignId, rager, known, bot } = await shop();
    const all = await heatmap(campaignId, '');
    expect(all).toMatchObject({ clicks: 8, sessions: 3, sampled: false });

    const bots = await heatmap(campaignId, 'type=bot');
    expect(bots).toMatchObject({ views: 1, sessions: 1, clicks: 2, rageClicks: 0, deadClicks: 0, sampled: false });
    expect(elements(bots)).toEqual([['#add', 2, 0, 0]]);
    expect(bots.snapshot?.sessionId).toBe(bot);

    const humans = await heatmap(campaignId, 'type=human');
    expect(humans).toMatchObject({ views: 2, sessions: 2, clicks: 6, rageClicks: 1, deadClicks: 1, layerSessions: { rage: 1, dead: 1, error: 0 } });
    expect(elements(humans)).toEqual([
      ['#add', 5, 1, 0],
      ['form>label:nth-of-type(2)', 1, 0, 1],
    ]);

    const raging = await heatmap(campaignId, 'hasRageClicks=true');
    expect(raging).toMatchObject({ sessions: 1, clicks: 4, rageClicks: 1, averageFold: 50 });
    expect(raging.snapshot?.sessionId).toBe(rager);
    expect(raging.bins).toEqual([{ x: 6, y: 10, clicks: 4, rageClicks: 1, deadClicks: 0, errorClicks: 0 }]);

    for (const query of ['user=customer-4711', 'event=signup', 'hasDeadClicks=true']) {
      const one = await heatmap(campaignId, query);
      expect(one, query).toMatchObject({ sessions: 1, clicks: 2, deadClicks: 1, snapshot: { sessionId: known } });
      expect(elements(one), query).toEqual([
        ['#add', 1, 0, 0],
        ['form>label:nth-of-type(2)', 1, 0, 1],
      ]);
    }
    expect(await heatmap(campaignId, 'user=someone-else')).toMatchObject({ sessions: 0, clicks: 0, elements: [], bins: [], scroll: [], snapshot: null });
  });

  it('answers what the day aggregates answer when the filter matches every session', async () => {
    const { campaignId } = await shop();
    // Every visitor browses with Chrome: the per-session sum and the aggregates must agree to the last field.
    const range = `from=${Date.now() - 86_400_000}&to=${Date.now() + 60_000}`;
    expect(await heatmap(campaignId, `browser=chrome&${range}`)).toEqual(await heatmap(campaignId, range));
  });

  it('narrows the sessions that clicked an element too', async () => {
    const { campaignId, bot } = await shop();
    const clickers = async (query: string) => {
      const response = await get(`/api/v1/heatmaps/${campaignId}/clicks?path=/product/1&device=desktop&selector=${encodeURIComponent('#add')}&${query}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as HeatmapClicks).sessions.map((s) => s.sessionId);
    };
    expect(await clickers('')).toHaveLength(3);
    expect(await clickers('type=bot')).toEqual([bot]);
  });

  it('says when it counted only the newest contributions', async () => {
    const { campaignId } = await shop();
    await heatmap(campaignId, ''); // what ingest gathered, written
    const range = { from: Date.now() - 86_400_000, to: Date.now() + 1 };
    const page = { path: '/product/1', device: 'desktop' } as const;
    expect(await filteredHeatmap(plainRead(server.db), campaignId, page, range, { type: 'human' }, 1)).toMatchObject({ sessions: 1, sampled: true });
    expect(await filteredHeatmap(plainRead(server.db), campaignId, page, range, { type: 'human' }, 2)).toMatchObject({ sessions: 2, sampled: false });
  });

  it('refuses a bad filter with a reason, and keeps another owner out', async () => {
    const { campaignId } = await shop();
    for (const query of ['type=robot', 'hasRageClicks=yes', 'country=Germany', 'user=', 'step=1', 'outcome=dropped', 'sort=longest', 'limit=5', 'colour=red']) {
      const response = await get(`/api/v1/heatmaps/${campaignId}?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toBeTruthy();
    }
    expect((await get(`/api/v1/heatmaps/${campaignId}/clicks?path=/&device=desktop&selector=a&type=robot`)).status).toBe(400);
    expect((await get(`/api/v1/heatmaps/${campaignId}?type=bot`, stranger.headers)).status).toBe(404);
    expect((await get(`/api/v1/heatmaps/${campaignId}/clicks?path=/&device=desktop&selector=a&type=bot`, stranger.headers)).status).toBe(404);
  });
});
