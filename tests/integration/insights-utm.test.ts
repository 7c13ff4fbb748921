import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { NewSession } from '../../server/sessions/rows.js';
import type { Insights } from '../../common/api/insights.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId } from './ingest-support.js';

// UTM campaigns (from ingest to the dashboard and the list's `utm` filter), the median time on
// page, and each bucket's frustration kinds, on whichever database the run uses.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaignId: string;

const [HOUR, DAY, T0] = [3_600_000, 86_400_000, Date.UTC(2026, 0, 10)];
const RANGE = `from=${T0}&to=${T0 + 3 * DAY}`;

const utm = (source: string | null, medium: string | null, campaign: string | null) => ({ utm_source: source, utm_medium: medium, utm_campaign: campaign });

/**
 * Four sessions with known page times. a: / (10 s) → /a (30 s) → / (60 s, till its last activity);
 * b: / (20 s); c, the next day: /a (45 s); d: no pages.
 */
const seeded = (id: string): (NewSession & { times?: number[] })[] => [
  {
    ...{ campaign_id: id, id: 'a-session', started_at: T0 + HOUR, last_activity_at: T0 + HOUR + 100_000, pages: '/\n/a\n/', rage_click_count: 2 },
    ...{ quick_back_count: 1, ...utm('newsletter', 'email', 'spring-sale'), times: [0, 10_000, 40_000] },
  },
  {
    ...{ campaign_id: id, id: 'b-session', started_at: T0 + 2 * HOUR, last_activity_at: T0 + 2 * HOUR + 20_000, pages: '/', error_count: 3 },
    ...utm('newsletter', 'email', 'spring-sale'),
  },
  {
    ...{ campaign_id: id, id: 'c-session', started_at: T0 + DAY + HOUR, last_activity_at: T0 + DAY + HOUR + 45_000, pages: '/a' },
    ...{ excessive_scroll_count: 2, failed_request_count: 1, dead_click_count: 1, ...utm('google', 'cpc', null) },
  },
  { campaign_id: id, id: 'd-session', started_at: T0 + DAY + 2 * HOUR },
];

async function insights(query = RANGE, id = campaignId): Promise<Insights> {
  const response = await fetch(`${server.url}/api/v1/insights/${id}?${query}`, { headers: owner.headers });
  expect(response.status).toBe(200);
  return (await response.json()) as Insights;
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Utm Owner');
  campaignId = await makeCampaign(server, { ownerId: owner.userId, start: T0 - DAY });
  for (const { times, ...row } of seeded(campaignId)) {
    await insertSession(server.db, row);
    // session_pages as ingest leaves it, each page at its known time.
    for (const [position, offset] of (times ?? []).entries())
      await server.db
        .updateTable('session_pages')
        .set({ at: row.started_at + offset })
        .where('session_id', '=', row.id)
        .where('position', '=', position)
        .execute();
  }
});
afterAll(async () => server?.close());

describe('UTM campaigns', () => {
  it('keeps the entry page’s UTM parameters of a first batch, scrubbed again as the tracker does', async () => {
    const mine = await makeCampaign(server);
    const id = sessionId();
    const overrides = { utmSource: ' newsletter ', utmMedium: 'mail to jane@example.com', utmCampaign: `order-12345678-${'x'.repeat(85)}` };
    expect((await postBatch(server, mine, { sessionId: id, seq: 0, info: info(overrides), events: pageEvents() })).status).toBe(200);
    const row = await server.db.selectFrom('sessions').select(['utm_source', 'utm_medium', 'utm_campaign']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.utm_source).toBe('newsletter');
    expect(row.utm_medium).toBe('mail to [email]');
    expect(row.utm_campaign).toBe(`order-********-${'x'.repeat(85)}`);
  });

  it('refuses a UTM value over 100 characters', async () => {
    const mine = await makeCampaign(server);
    const body = { sessionId: sessionId(), seq: 0, info: info({ utmCampaign: 'x'.repeat(101) }), events: pageEvents() };
    const response = await postBatch(server, mine, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/utmCampaign must be text of at most 100 characters/);
  });

  it('lists sessions by source, medium and campaign, most first, only those that had any', async () => {
    const body = await insights();
    expect(body.utm).toEqual([
      { source: 'newsletter', medium: 'email', campaign: 'spring-sale', sessions: 2 },
      { source: 'google', medium: 'cpc', campaign: null, sessions: 1 },
    ]);
  });

  it('filters the sessions list and the insights by utm (the campaign, exactly)', async () => {
    const list = async (query: string) => {
      const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?${query}`, { headers: owner.headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as SessionsResponse).sessions.map((s) => s.sessionId).sort();
    };
    expect(await list('utm=spring-sale')).toEqual(['a-session', 'b-session']);
    expect(await list('utm=spring')).toEqual([]);
    expect((await insights(`${RANGE}&utm=spring-sale`)).totals.sessions).toBe(2);
    const tooLong = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?utm=${'x'.repeat(101)}`, { headers: owner.headers });
    expect(tooLong.status).toBe(400);
  });
});

describe('time on page', () => {
  it('gives each page the median time from its load to the next page, the last to the session’s last activity', async () => {
    const body = await insights();
    const median = Object.fromEntries(body.pages.map((page) => [page.path, page.medianMsOnPage]));
    // /: 10, 60 and 20 s; /a: 30 s on the first day, 45 s on the second (days added up).
    expect(median).toEqual({ '/': 20_000, '/a': 37_500 });
    expect((await insights(`from=${T0}&to=${T0 + DAY}`)).pages.find((page) => page.path === '/a')?.medianMsOnPage).toBe(30_000);
  });

  it('answers the same from the stored days', async () => {
    const first = await insights();
    const stored = await server.db.selectFrom('insights_days').select('day').where('campaign_id', '=', campaignId).execute();
    expect(stored.length).toBe(3);
    expect(await insights()).toEqual(first);
  });

  it('drops a stored day when a page time changes, and counts it afresh', async () => {
    const mine = await makeCampaign(server, { ownerId: owner.userId, start: T0 - DAY });
    await insertSession(server.db, { campaign_id: mine, id: 'only', started_at: T0 + HOUR, last_activity_at: T0 + HOUR + 8_000, pages: '/' });
    expect((await insights(RANGE, mine)).pages[0].medianMsOnPage).toBe(8_000);
    await server.db
      .updateTable('sessions')
      .set({ last_activity_at: T0 + HOUR + 9_000 })
      .where('campaign_id', '=', mine)
      .execute();
    expect((await insights(RANGE, mine)).pages[0].medianMsOnPage).toBe(9_000);
  });
});

describe('frustration over time', () => {
  it('carries each bucket’s frustration kinds', async () => {
    const kinds = (await insights()).series.map(({ t, rageClicks, deadClicks, quickBacks, excessiveScrolls, errors, failedRequests }) => [
      t,
      [rageClicks, deadClicks, quickBacks, excessiveScrolls, errors, failedRequests],
    ]);
    expect(kinds).toEqual([
      [T0, [2, 0, 1, 0, 3, 0]],
      [T0 + DAY, [0, 1, 0, 2, 0, 1]],
      [T0 + 2 * DAY, [0, 0, 0, 0, 0, 0]],
    ]);
  });
});
