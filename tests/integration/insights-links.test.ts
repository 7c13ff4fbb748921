import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { NewSession } from '../../server/sessions/rows.js';
import type { Insights } from '../../common/api/insights.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { DIRECT_REFERRER, UNKNOWN_LIST, UNKNOWN_VALUES } from '../../common/session-list.js';
import { fetchSessionsPage } from '../../src/api/sessions.js';
import type { ApiClient } from '../../src/api/client.js';
import { listQuery, validateSessionListSearch } from '../../src/lib/sessionListContext.js';
import { bucketFilters, type SessionsSearch } from '../../src/components/insights/SessionsLink.js';
import { utmFilters } from '../../src/components/insights/UtmTable.js';
import { makeCampaign } from './ingest-support.js';

// Every figure of the insights screen links to the sessions list narrowed to the sessions it
// counts (src/screens/CampaignInsights.tsx): each link's search, read as the list's route reads
// its URL and asked for as the list asks, answers `matched` equal to the figure. On whichever
// database the run uses.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaignId: string;

const [HOUR, DAY, T0] = [3_600_000, 86_400_000, Date.UTC(2026, 0, 10)];

const utm = (utm_source: string | null, utm_medium: string | null, utm_campaign: string | null) => ({ utm_source, utm_medium, utm_campaign });
const at = (hours: number) => ({ started_at: T0 + hours * HOUR, last_activity_at: T0 + hours * HOUR + 30_000 });
const device = (country_code: string, deviceKind: string, browser_name: string, os: string | null, screen: [number, number] | null) => ({
  ...{ country_code, device: deviceKind, browser_name, os },
  ...{ screen_width: screen?.[0] ?? null, screen_height: screen?.[1] ?? null },
});

/** Eight sessions in the range (one a bot) with pages that differ by case, repeat, or hold LIKE's wildcards; one before it. */
const seeded = (id: string): NewSession[] => [
  {
    ...{ campaign_id: id, id: 's1', ...at(1), ...device('DE', 'desktop', 'chrome', 'Windows 10', [1920, 1080]) },
    ...{ referrer: 'https://www.google.com/', pages: '/\n/products\n/cart', exit_url: '/cart', rage_click_count: 1, error_count: 2 },
    ...utm('newsletter', 'email', 'spring-sale'),
  },
  {
    ...{ campaign_id: id, id: 's2', ...at(2), ...device('DE', 'mobile', 'safari', 'iOS 17', [390, 844]) },
    ...{ pages: '/Cart\n/products', exit_url: '/products', dead_click_count: 1, ...utm('google', 'cpc', 'spring-sale') },
  },
  {
    ...{ campaign_id: id, id: 's3', ...at(3), ...device('FR', 'desktop', 'firefox', 'Windows 10', [1920, 1080]) },
    ...{ referrer: 'https://news.example/a_b%', pages: '/products\n/products\n/100%_off', exit_url: '/100%_off', failed_request_count: 1, quick_back_count: 1 },
    ...utm('google', null, null),
  },
  {
    ...{ campaign_id: id, id: 's4', ...at(4), ...device('US', 'desktop', 'chrome', null, null), is_bot: 1, bot_reason: 'webdriver' },
    ...{ referrer: 'https://www.google.com/', pages: '/', exit_url: '/' },
  },
  {
    ...{ campaign_id: id, id: 's5', ...at(26), ...device('GB', 'tablet', 'chrome', 'Android 14', [800, 1280]) },
    ...{ referrer: 'https://www.google.com', pages: '/products/kettle\n/cart', exit_url: '/cart', excessive_scroll_count: 1 },
  },
  {
    ...{ campaign_id: id, id: 's6', ...at(27), ...device('DE', 'desktop', 'chrome', 'Windows 10', [1920, 1080]) },
    ...{ pages: '/cart\n/', exit_url: '/', error_count: 1, rage_click_count: 2 },
  },
  { campaign_id: id, id: 's7', ...at(50), ...device('FR', 'mobile', 'chrome', 'iOS 17', [390, 844]) },
  // Nothing known of its visitor: the insights' "Unknown" rows.
  { campaign_id: id, id: 's8', ...at(51) },
  { campaign_id: id, id: 's0', ...at(-1), ...device('DE', 'desktop', 'chrome', 'Windows 10', [1920, 1080]), pages: '/' },
];

async function insights(from: number, to: number): Promise<Insights> {
  const response = await fetch(`${server.url}/api/v1/insights/${campaignId}?from=${from}&to=${to}`, { headers: owner.headers });
  expect(response.status).toBe(200);
  return (await response.json()) as Insights;
}

/** The list as the sessions page asks for it, opened at the link's search (read as the route reads its URL). */
async function listed(search: SessionsSearch): Promise<SessionsResponse> {
  const client = {
    get: async (path: string) => {
      const response = await fetch(`${server.url}${path}`, { headers: owner.headers });
      expect(response.status, path).toBe(200);
      return response.json();
    },
  } as unknown as ApiClient;
  return fetchSessionsPage(campaignId, listQuery(validateSessionListSearch({ ...search })), null, client);
}

/** Every figure of the screen with the search its link opens, as CampaignInsights.tsx and its tables build them. */
function figures(body: Insights): [name: string, count: number, search: SessionsSearch][] {
  const range = { from: body.from, to: body.to };
  const all: [string, number, SessionsSearch][] = [];
  const add = (name: string, count: number, search: SessionsSearch) => all.push([name, count, { ...range, ...search }]);
  const { totals, frustration } = body;
  add('sessions', totals.sessions, {});
  add('humans', totals.humans, { type: 'human' });
  add('bots', totals.bots, { type: 'bot' });
  add('median duration', totals.sessions, { sort: 'longest' });
  add('median active time', totals.sessions, { sort: 'active' });
  add('with errors', totals.withErrors, { hasErrors: true });
  add('with frustration', totals.withFrustration, { hasFrustration: true });
  add('rage clicks', frustration.sessionsWithRageClicks, { hasRageClicks: true });
  add('dead clicks', frustration.sessionsWithDeadClicks, { hasDeadClicks: true });
  add('quick backs', frustration.sessionsWithQuickBacks, { hasQuickBacks: true });
  add('excessive scrolling', frustration.sessionsWithExcessiveScrolling, { hasExcessiveScrolling: true });
  add('errors', frustration.sessionsWithErrors, { hasErrors: true });
  add('failed requests', frustration.sessionsWithFailedRequests, { hasFailedRequests: true });
  for (const b of body.series) {
    const bucket = bucketFilters(b.t, body.bucketMs, range);
    add(`bucket ${b.t}`, b.humans + b.bots, bucket);
    add(`bucket ${b.t} humans`, b.humans, { ...bucket, type: 'human' });
    add(`bucket ${b.t} bots`, b.bots, { ...bucket, type: 'bot' });
    add(`bucket ${b.t} with errors`, b.withErrors, { ...bucket, hasErrors: true });
  }
  for (const page of body.pages) {
    add(`page ${page.path} sessions`, page.sessions ?? -1, { page: page.path });
    add(`page ${page.path} entries`, page.entries, { entry: page.path });
    add(`page ${page.path} exits`, page.exits, { exit: page.path });
    add(`page ${page.path} rage`, page.rageClicks, { page: page.path, hasRageClicks: true });
    add(`page ${page.path} dead`, page.deadClicks, { page: page.path, hasDeadClicks: true });
    add(`page ${page.path} errors`, page.errors, { page: page.path, hasErrors: true });
  }
  for (const e of body.errors) add(`error ${e.message}`, e.sessions, { error: e.message });
  // An "Unknown" row: the sessions without the value.
  for (const row of body.countries) add(`country ${row.countryCode}`, row.sessions, row.countryCode ? { country: row.countryCode } : { unknown: 'country' });
  for (const row of body.devices)
    add(`device ${row.device}`, row.sessions, row.device ? { device: row.device as SessionsSearch['device'] } : { unknown: 'device' });
  for (const row of body.browsers) add(`browser ${row.browser}`, row.sessions, row.browser ? { browser: row.browser } : { unknown: 'browser' });
  for (const row of body.os) add(`os ${row.os}`, row.sessions, row.os ? { os: row.os } : { unknown: 'os' });
  for (const row of body.referrers) add(`referrer ${row.referrer}`, row.sessions, { referrer: row.referrer ?? DIRECT_REFERRER });
  for (const row of body.screens) add(`screen ${row.screen}`, row.sessions, row.screen ? { screen: row.screen.replace('×', 'x') } : { unknown: 'screen' });
  for (const row of body.utm) add(`utm ${row.source}/${row.medium}/${row.campaign}`, row.sessions, utmFilters(row));
  return all;
}

async function expectLinksAgree(body: Insights): Promise<void> {
  const found: Record<string, number | undefined> = {};
  const expected: Record<string, number> = {};
  for (const [name, count, search] of figures(body)) {
    const page = await listed(search);
    expected[name] = count;
    found[name] = page.matched;
    expect(page.sessions.length, name).toBe(count);
  }
  expect(found).toEqual(expected);
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Links Owner');
  campaignId = await makeCampaign(server, { ownerId: owner.userId, start: T0 - DAY });
  for (const row of seeded(campaignId)) await insertSession(server.db, row);
  await server.db
    .insertInto('session_errors')
    .values([
      { campaign_id: campaignId, session_id: 's1', message: 'TypeError: x is undefined', count: 2, first_at: T0 + HOUR, last_at: T0 + HOUR + 1000 },
      { campaign_id: campaignId, session_id: 's6', message: 'TypeError: x is undefined', count: 1, first_at: T0 + 27 * HOUR, last_at: T0 + 27 * HOUR },
    ])
    .execute();
});
afterAll(async () => server?.close());

describe('the insights figures open their sessions', () => {
  it('each figure of a 3-day range equals the matched count of the list its link opens', async () => {
    const body = await insights(T0, T0 + 3 * DAY);
    // The rows the new filters narrow by, as the screen shows them.
    expect(body.os).toEqual(
      expect.arrayContaining([
        { os: 'Windows 10', sessions: 3 },
        { os: 'iOS 17', sessions: 2 },
      ]),
    );
    expect(body.referrers).toEqual(
      expect.arrayContaining([
        { referrer: null, sessions: 4 },
        { referrer: 'https://www.google.com/', sessions: 2 },
      ]),
    );
    expect(body.os).toEqual(expect.arrayContaining([{ os: null, sessions: 2 }]));
    expect(body.countries).toEqual(expect.arrayContaining([{ countryCode: null, country: null, sessions: 1 }]));
    // One UTM campaign from two sources: two rows, each its own sessions.
    expect(body.utm).toEqual(
      expect.arrayContaining([
        { source: 'newsletter', medium: 'email', campaign: 'spring-sale', sessions: 1 },
        { source: 'google', medium: 'cpc', campaign: 'spring-sale', sessions: 1 },
        { source: 'google', medium: null, campaign: null, sessions: 1 },
      ]),
    );
    expect(body.screens).toEqual(expect.arrayContaining([{ screen: '1920×1080', sessions: 3 }]));
    expect(body.totals.withFrustration).toBe(5);
    // /products: viewed 4 times by 3 sessions; /cart and /Cart apart; /100%_off and /products/kettle not matched as patterns.
    expect(body.pages.find((p) => p.path === '/products')).toMatchObject({ views: 4, sessions: 3, entries: 1, exits: 1 });
    expect(body.pages.find((p) => p.path === '/cart')).toMatchObject({ views: 3, sessions: 3, entries: 1, exits: 2 });
    await expectLinksAgree(body);
  });

  it('so does each figure of an hourly range, whose first hour starts before it', async () => {
    const body = await insights(T0 + 90 * 60_000, T0 + 30 * HOUR);
    expect(body.bucketMs).toBe(HOUR);
    expect(body.series[0].t).toBeLessThan(body.from);
    expect(body.totals.sessions).toBe(5);
    await expectLinksAgree(body);
  });

  it('narrows by OS, referrer, screen and pages exactly', async () => {
    const ids = async (search: SessionsSearch) => (await listed({ from: T0, to: T0 + 3 * DAY, ...search })).sessions.map((s) => s.sessionId).sort();
    expect(await ids({ os: 'Windows 10' })).toEqual(['s1', 's3', 's6']);
    expect(await ids({ os: 'windows 10' })).toEqual([]);
    expect(await ids({ referrer: DIRECT_REFERRER })).toEqual(['s2', 's6', 's7', 's8']);
    expect(await ids({ unknown: 'os' })).toEqual(['s4', 's8']);
    expect(await ids({ unknown: 'screen,country' })).toEqual(['s8']);
    expect(await ids({ utmSource: 'google', unknown: 'utmMedium,utm' })).toEqual(['s3']);
    expect(await ids({ utm: 'spring-sale', utmSource: 'google' })).toEqual(['s2']);
    expect(await ids({ referrer: 'https://news.example/a_b%' })).toEqual(['s3']);
    expect(await ids({ screen: '390x844' })).toEqual(['s2', 's7']);
    expect(await ids({ page: '/cart' })).toEqual(['s1', 's5', 's6']);
    expect(await ids({ page: '/Cart' })).toEqual(['s2']);
    expect(await ids({ page: '/100%_off' })).toEqual(['s3']);
    expect(await ids({ page: '/100' })).toEqual([]);
    expect(await ids({ entry: '/products' })).toEqual(['s3']);
    expect(await ids({ exit: '/cart' })).toEqual(['s1', 's5']);
    expect(await ids({ exit: '/' })).toEqual(['s4', 's6']);
    expect(await ids({ entry: '/' })).toEqual(['s1', 's4']);
    expect(await ids({ hasFrustration: true })).toEqual(['s1', 's2', 's3', 's5', 's6']);
    expect(await ids({ hasFailedRequests: true })).toEqual(['s3']);
  });

  it('takes every unknown value, alone and together', () => {
    for (const value of UNKNOWN_VALUES) expect(UNKNOWN_LIST.test(value), value).toBe(true);
    expect(UNKNOWN_LIST.test(UNKNOWN_VALUES.join(','))).toBe(true);
  });

  it.each(['screen=wide', 'unknown=referrer', 'unknown=os,'])('refuses %s', async (query) => {
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?${query}`, { headers: owner.headers });
    expect(response.status).toBe(400);
  });
});
