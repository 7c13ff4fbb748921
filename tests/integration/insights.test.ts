import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { createCampaign } from './ingest-support.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { NewSession } from '../../server/sessions/rows.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import type { Campaign } from '../../common/api-types.js';
import type { Insights } from '../../common/api/insights.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 10);
const RANGE = `from=${T0}&to=${T0 + 3 * DAY}`;

/** Four sessions in the range (three humans, one bot) and one before it. */
const seeded = (campaignId: string): NewSession[] => [
  {
    ...{ campaign_id: campaignId, id: 'a-session', started_at: T0 + HOUR, last_activity_at: T0 + HOUR + 10_000, active_ms: 6_000, page_count: 3 },
    ...{ country_code: 'DE', country: 'Germany', device: 'desktop', browser_name: 'chrome', os: 'Linux', screen_width: 1920, screen_height: 1080 },
    ...{ referrer: 'https://www.google.com/', pages: '/\n/products\n/cart', exit_url: '/cart', error_count: 2, rage_click_count: 1 },
  },
  {
    ...{ campaign_id: campaignId, id: 'b-session', started_at: T0 + 2 * HOUR, last_activity_at: T0 + 2 * HOUR + 20_000, active_ms: 4_000, page_count: 2 },
    ...{ country_code: 'DE', country: 'Germany', device: 'mobile', browser_name: 'safari', os: 'iOS', screen_width: 390, screen_height: 844 },
    ...{ pages: '/\n/products', exit_url: '/products', dead_click_count: 1 },
  },
  {
    // Its duration (5 s) is below its active time (30 s): counted as 30 s, as the list shows it.
    ...{ campaign_id: campaignId, id: 'c-session', started_at: T0 + 25 * HOUR, last_activity_at: T0 + 25 * HOUR + 5_000, active_ms: 30_000, page_count: 1 },
    ...{
      country_code: 'FR',
      country: 'France',
      device: 'desktop',
      browser_name: 'firefox',
      os: 'Linux',
      pages: '/products',
      exit_url: '/products',
      failed_request_count: 1,
    },
  },
  {
    ...{
      campaign_id: campaignId,
      id: 'd-session',
      started_at: T0 + 26 * HOUR,
      last_activity_at: T0 + 26 * HOUR + 40_000,
      page_count: 1,
      is_bot: 1,
      bot_reason: 'webdriver',
    },
    ...{ country_code: 'US', country: 'United States', device: 'desktop', browser_name: 'chrome', pages: '/', exit_url: '/' },
  },
  { campaign_id: campaignId, id: 'e-session', started_at: T0 - HOUR, country_code: 'DE', pages: '/', exit_url: '/' },
];

const newCampaign = (headers = owner.headers) => createCampaign(server, headers, 'Shop', 'shop.example.com', { from: T0, to: T0 + 1e10 });

const call = (query: string, campaignId = campaign.id, headers: Record<string, string> = owner.headers) =>
  fetch(`${server.url}/api/v1/insights/${campaignId}${query ? `?${query}` : ''}`, { headers });

async function insights(query = RANGE): Promise<Insights> {
  const response = await call(query);
  expect(response.status).toBe(200);
  return (await response.json()) as Insights;
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Insights Owner');
  campaign = await newCampaign();
  for (const row of seeded(campaign.id)) await insertSession(server.db, row);
});
afterAll(async () => server?.close());

describe('GET /api/v1/insights/:campaignId', () => {
  it('totals the sessions of the range: humans, bots, medians, pages per session, errors and frustration', async () => {
    const body = await insights();
    expect(body.totals).toEqual({
      sessions: 4,
      humans: 3,
      bots: 1,
      medianDurationMs: 25_000, // 10, 20, 30 (its active time), 40 s
      medianActiveMs: 5_000, // 0, 4, 6, 30 s
      pagesPerSession: 1.75,
      withErrors: 1,
      withFrustration: 2,
    });
    expect(body.frustration).toEqual({
      rageClicks: 1,
      deadClicks: 1,
      quickBacks: 0,
      excessiveScrolls: 0,
      errors: 2,
      failedRequests: 1,
      sessionsWithRageClicks: 1,
      sessionsWithDeadClicks: 1,
      sessionsWithQuickBacks: 0,
      sessionsWithExcessiveScrolling: 0,
      sessionsWithErrors: 1,
      sessionsWithFailedRequests: 1,
    });
  });

  it('draws day buckets for a 3-day range, every day present', async () => {
    const body = await insights();
    expect(body.bucketMs).toBe(DAY);
    const none = { rageClicks: 0, deadClicks: 0, quickBacks: 0, excessiveScrolls: 0, errors: 0, failedRequests: 0 };
    expect(body.series).toEqual([
      { t: T0, humans: 2, bots: 0, withErrors: 1, withFrustration: 2, ...none, rageClicks: 1, deadClicks: 1, errors: 2 },
      { t: T0 + DAY, humans: 1, bots: 1, withErrors: 0, withFrustration: 0, ...none, failedRequests: 1 },
      { t: T0 + 2 * DAY, humans: 0, bots: 0, withErrors: 0, withFrustration: 0, ...none },
    ]);
  });

  it('draws hour buckets for a range of up to 2 days', async () => {
    const body = await insights(`from=${T0}&to=${T0 + DAY}`);
    expect(body.bucketMs).toBe(HOUR);
    expect(body.series).toHaveLength(24);
    expect(body.series.filter((b) => b.humans + b.bots > 0).map((b) => [b.t, b.humans])).toEqual([
      [T0 + HOUR, 1],
      [T0 + 2 * HOUR, 1],
    ]);
  });

  it('counts pages by views, sessions, entries and exits, and the sessions with rage clicks, dead clicks and errors on each', async () => {
    const body = await insights();
    expect(body.pagesFromSessions).toBe(4);
    // Times on page: see insights-utm.test.ts.
    expect(body.pages.map(({ medianMsOnPage, ...page }) => page)).toEqual([
      { path: '/', views: 3, sessions: 3, entries: 3, exits: 1, rageClicks: 1, deadClicks: 1, errors: 1 },
      { path: '/products', views: 3, sessions: 3, entries: 1, exits: 2, rageClicks: 1, deadClicks: 1, errors: 1 },
      { path: '/cart', views: 1, sessions: 1, entries: 0, exits: 1, rageClicks: 1, deadClicks: 0, errors: 1 },
    ]);
  });

  it('lists referrers, devices, browsers, OS, screens and countries, most sessions first', async () => {
    const body = await insights();
    expect(body.referrers).toEqual([
      { referrer: null, sessions: 3 },
      { referrer: 'https://www.google.com/', sessions: 1 },
    ]);
    expect(body.devices).toEqual([
      { device: 'desktop', sessions: 3 },
      { device: 'mobile', sessions: 1 },
    ]);
    expect(body.browsers).toEqual([
      { browser: 'chrome', sessions: 2 },
      { browser: 'firefox', sessions: 1 },
      { browser: 'safari', sessions: 1 },
    ]);
    // Ties by name, the unknown last (on both databases).
    expect(body.os).toEqual([
      { os: 'Linux', sessions: 2 },
      { os: 'iOS', sessions: 1 },
      { os: null, sessions: 1 },
    ]);
    expect(body.screens).toContainEqual({ screen: '1920×1080', sessions: 1 });
    expect(body.screens).toContainEqual({ screen: '390×844', sessions: 1 });
    expect(body.countries).toEqual([
      { countryCode: 'DE', country: 'Germany', sessions: 2 },
      { countryCode: 'FR', country: 'France', sessions: 1 },
      { countryCode: 'US', country: 'United States', sessions: 1 },
    ]);
  });

  it.each([
    ['country=de', 2],
    ['device=mobile', 1],
    ['browser=Chrome', 2],
    ['type=bot', 1],
    ['hasErrors=true', 1],
    ['hasDeadClicks=true', 1],
    ['url=cart', 1],
  ])('takes the sessions list filter %s', async (filter, sessions) => {
    const body = await insights(`${RANGE}&${filter}`);
    expect(body.totals.sessions).toBe(sessions);
  });

  it('covers the last 30 days when no range is given', async () => {
    const body = await insights('');
    // From the start of the day 30 days back (the first day's bucket), to now.
    expect(body.from).toBe(Math.floor((body.to - 30 * DAY) / DAY) * DAY);
    expect(body.bucketMs).toBe(DAY);
  });

  it.each([
    [`from=${T0}&to=${T0 + 367 * DAY}`, 'The range may span at most 366 days'],
    [`from=${T0}&to=${T0}`, 'from must be before to'],
    [`from=Infinity&to=${T0}`, 'querystring.from must be a finite number'],
    [`from=-1`, /from/],
    [`${RANGE}&limit=5`, /limit/],
  ])('answers 400 for %s', async (query, error) => {
    const response = await call(query);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string };
    if (typeof error === 'string') expect(body.error).toBe(error);
    else expect(body.error).toMatch(error);
  });

  it("answers 404 for another workspace's campaign or an unknown one, 400 for a malformed id, 401 without a session", async () => {
    const other = await userSession(server, 'Someone Else');
    const theirs = await call(RANGE, campaign.id, other.headers);
    expect(theirs.status).toBe(404);
    const unknown = await call(RANGE, crypto.randomUUID());
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'Campaign not found' }]);
    const bad = await call(RANGE, 'nope');
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'Invalid campaign id' }]);
    const anonymous = await call(RANGE, campaign.id, {});
    expect([anonymous.status, await anonymous.json()]).toEqual([401, { error: 'Unauthorized' }]);
  });
});

describe('stored days', () => {
  const storedDays = async (campaignId: string) =>
    (await server.db.selectFrom('insights_days').select('day').where('campaign_id', '=', campaignId).orderBy('day').execute()).map((row) => Number(row.day));

  it('keeps the whole settled days of a range, and answers the same from them', async () => {
    const first = await insights();
    expect((await storedDays(campaign.id)).filter((day) => day < T0 + 3 * DAY)).toEqual([T0, T0 + DAY, T0 + 2 * DAY]);
    expect(await insights()).toEqual(first);
  });

  it('drops a day as soon as one of its sessions is added, changed or deleted, and counts it afresh', async () => {
    const mine = await newCampaign();
    const one = crypto.randomUUID();
    await insertSession(server.db, { campaign_id: mine.id, id: one, started_at: T0 + HOUR, pages: '/' });
    const ask = async () => {
      const response = await call(RANGE, mine.id);
      return ((await response.json()) as Insights).totals;
    };
    expect((await ask()).sessions).toBe(1);
    await insertSession(server.db, { campaign_id: mine.id, id: 'two', started_at: T0 + DAY + HOUR, pages: '/' });
    expect(await storedDays(mine.id)).toEqual([T0, T0 + 2 * DAY]);
    expect((await ask()).sessions).toBe(2);
    await server.db.updateTable('sessions').set({ is_bot: 1 }).where('campaign_id', '=', mine.id).where('id', '=', 'two').execute();
    expect(await storedDays(mine.id)).toEqual([T0, T0 + 2 * DAY]);
    expect(await ask()).toMatchObject({ sessions: 2, bots: 1 });
    const deleted = await fetch(`${server.url}/api/v1/streaming/sessions/${mine.id}/${one}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBeLessThan(300);
    expect(await storedDays(mine.id)).toEqual([T0 + DAY, T0 + 2 * DAY]);
    expect(await ask()).toMatchObject({ sessions: 1, bots: 1 });
  });

  it('leaves no stored day of a deleted campaign', async () => {
    const mine = await newCampaign();
    await insertSession(server.db, { campaign_id: mine.id, id: 'one', started_at: T0 + HOUR, pages: '/' });
    expect((await call(RANGE, mine.id)).status).toBe(200);
    expect(await storedDays(mine.id)).toHaveLength(3);
    const response = await fetch(`${server.url}/api/v1/campaign/delete/${mine.id}`, { method: 'DELETE', headers: owner.headers });
    expect(response.status).toBeLessThan(300);
    expect(await storedDays(mine.id)).toEqual([]);
  });

  it('leaves no stored day of the sessions retention deleted (this test runs last: the sweep covers every campaign)', async () => {
    const mine = await newCampaign();
    await insertSession(server.db, { campaign_id: mine.id, id: crypto.randomUUID(), started_at: T0 + HOUR, pages: '/' });
    expect((await call(RANGE, mine.id)).status).toBe(200);
    expect(await storedDays(mine.id)).toEqual([T0, T0 + DAY, T0 + 2 * DAY]);
    await server.db.updateTable('campaigns').set({ retention_days: 1 }).where('id', '=', mine.id).execute();
    expect(await sweepExpiredRecordings(server.db, { now: T0 + 3 * DAY })).toBeGreaterThan(0);
    expect(await storedDays(mine.id)).toEqual([T0 + DAY, T0 + 2 * DAY]);
    expect(((await (await call(RANGE, mine.id)).json()) as Insights).totals.sessions).toBe(0);
  });
});
