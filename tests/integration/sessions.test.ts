import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingNow } from '../../common/recording-now.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { createCampaign } from './ingest-support.js';
import { sessionRow, type NewSession } from '../../server/sessions/rows.js';
import type { Campaign, Session, SessionsResponse } from '../../common/api-types.js';
import { BOT_REASONS } from '../../server/recordings/rules.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
let seeded: NewSession[];

const T0 = 1_750_000_000_000;
const BOTS = 31;
const TOTAL = 130;

const newCampaign = (headers = owner.headers) => createCampaign(server, headers, 'Shop', 'shop.example.com', { from: T0, to: T0 + 1e10 });

/** 130 sessions: every fourth one shares its start time with a neighbour, every 13th... is a bot. */
function seedRows(campaignId: string): NewSession[] {
  return Array.from({ length: TOTAL }, (_, i) => ({
    campaign_id: campaignId,
    id: `s${String(i).padStart(3, '0')}-${i % 2 ? 'AbCd' : 'wxyz'}-session`,
    started_at: T0 + Math.floor(i / 2) * 1000,
    last_activity_at: T0 + Math.floor(i / 2) * 1000 + 5000,
    remote_ip: `203.0.113.${i}`,
    language: ['en-US', 'de-DE', 'fr-FR'][i % 3],
    is_bot: i < BOTS ? 1 : 0,
    webdriver: i < 10 ? 1 : 0,
    bot_reason: i < 10 ? 'webdriver' : i < BOTS ? 'crawler user agent' : null,
    cookies_enabled: 1,
  }));
}

const newestFirst = (rows: NewSession[]) => [...rows].sort((a, b) => b.started_at - a.started_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((r) => r.id);

function list(campaignId: string, query = '', headers: Record<string, string> = owner.headers, slash = '/') {
  return fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}${slash}${query ? `?${query}` : ''}`, { headers });
}

async function page(query: string, campaignId = campaign.id): Promise<SessionsResponse> {
  const response = await list(campaignId, query);
  expect(response.status).toBe(200);
  return (await response.json()) as SessionsResponse;
}

async function all(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set('cursor', cursor);
    const body = await page(params.toString());
    ids.push(...body.sessions.map((s) => s.sessionId));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Sessions Owner');
  campaign = await newCampaign();
  seeded = seedRows(campaign.id);
  for (let i = 0; i < seeded.length; i += 50) {
    await server.db
      .insertInto('sessions')
      .values(seeded.slice(i, i + 50).map(sessionRow))
      .execute();
  }
});
afterAll(async () => server?.close());

describe('GET /api/v1/streaming/sessions/:campaignId/', () => {
  it('answers the first 50, newest first, with whole-campaign counts', async () => {
    const body = await page('');
    expect(body.sessions).toHaveLength(50);
    expect(body.sessions.map((s) => s.sessionId)).toEqual(newestFirst(seeded).slice(0, 50));
    expect(body.nextCursor).toEqual(expect.any(String));
    expect(body.counts).toEqual({ total: TOTAL, human: TOTAL - BOTS, bot: BOTS });
  });

  it('answers the same with and without the trailing slash', async () => {
    const bare = await list(campaign.id, 'limit=3', owner.headers, '');
    expect(bare.status).toBe(200);
    expect(await bare.json()).toEqual(await page('limit=3'));
  });

  it('pages through every session exactly once, ties on start time broken by id', async () => {
    expect(await all('limit=7')).toEqual(newestFirst(seeded));
    expect(await all('limit=200')).toEqual(newestFirst(seeded));
    const last = await page('limit=200');
    expect(last.nextCursor).toBeNull();
  });

  it('filters by type with the server verdict, paging within the filter', async () => {
    const bots = await all('type=bot&limit=4');
    expect(bots).toEqual(newestFirst(seeded.filter((s) => s.is_bot === 1)));
    const humans = await all('type=human&limit=40');
    expect(humans).toEqual(newestFirst(seeded.filter((s) => s.is_bot === 0)));
    const body = await page('type=bot&limit=1');
    expect(body.counts).toEqual({ total: TOTAL, human: TOTAL - BOTS, bot: BOTS });
  });

  it('says how many sessions a narrowed list matches on its first page ("5 of 7 sessions"), nothing on the whole list or later pages', async () => {
    expect(await page('limit=5')).not.toHaveProperty('matched');
    const bots = await page('type=bot&limit=4');
    expect(bots.matched).toBe(BOTS);
    expect(await page(`type=bot&limit=4&cursor=${bots.nextCursor}`)).not.toHaveProperty('matched');
    expect((await page('search=ABCD&type=human&limit=3')).matched).toBe(seeded.filter((s) => s.id.includes('AbCd') && s.is_bot === 0).length);
    expect((await page('search=nothing-like-this')).matched).toBe(0);
  });

  it('searches session id, IP and language case-insensitively, as substrings', async () => {
    const matches = (pred: (s: NewSession) => boolean) => newestFirst(seeded.filter(pred));
    expect(await all('search=ABCD&limit=25')).toEqual(matches((s) => s.id.includes('AbCd')));
    expect(await all('search=s01')).toEqual(matches((s) => s.id.startsWith('s01')));
    expect(await all('search=113.12')).toEqual(matches((s) => String(s.remote_ip).includes('113.12')));
    expect(await all('search=DE-de')).toEqual(matches((s) => s.language === 'de-DE'));
    expect(await all(`search=${encodeURIComponent('  fr-FR  ')}&type=bot`)).toEqual(matches((s) => s.language === 'fr-FR' && s.is_bot === 1));
    expect(await all('search=nothing-like-this')).toEqual([]);
  });

  it('treats LIKE wildcards in a search as plain characters', async () => {
    expect(await all(`search=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await all(`search=${encodeURIComponent('s0_0')}`)).toEqual([]);
    expect(await all(`search=${encodeURIComponent('\\')}`)).toEqual([]);
  });

  it('answers every session field, the stored webdriver flag apart from the verdict', async () => {
    const body = await page('search=s015-AbCd');
    expect(body.sessions).toHaveLength(1);
    const session: Session = body.sessions[0];
    expect(session).toEqual({
      sessionId: 's015-AbCd-session',
      remoteIpAddress: '203.0.113.15',
      ipMode: 'full',
      language: 'en-US',
      timezone: null,
      hardwareConcurrency: null,
      webdriver: false,
      cookiesEnabled: true,
      hasFocus: false,
      fullScreenEnabled: false,
      userAgent: null,
      country: null,
      isBot: true,
      botReason: 'crawler user agent',
      browser: null,
      os: null,
      device: null,
      screenWidth: null,
      screenHeight: null,
      referrer: null,
      entryUrl: null,
      startedAt: T0 + 7000,
      lastActivityAt: T0 + 12000,
      durationMs: 5000,
      pageCount: 0,
      eventCount: 0,
      byteCount: 0,
      countryCode: null,
      activeMs: 0,
      pages: [],
      clickCount: 0,
      rageClickCount: 0,
      deadClickCount: 0,
      quickBackCount: 0,
      excessiveScrollCount: 0,
      errorCount: 0,
      failedRequestCount: 0,
      exitUrl: null,
      userId: null,
      traits: {},
      tags: {},
      events: {},
      starred: false,
    });
    const webdriven = (await page('search=s003-AbCd')).sessions[0];
    expect([webdriven.webdriver, webdriven.isBot, webdriven.botReason]).toEqual([true, true, 'webdriver']);
  });

  it('counts a session that ended without human input as a bot when listing', async () => {
    const fresh = await newCampaign();
    const now = Date.now();
    const row = (id: string, idleMinutes: number, human: 0 | 1): NewSession => ({
      campaign_id: fresh.id,
      id,
      started_at: now - (idleMinutes + 5) * 60_000,
      last_activity_at: now - idleMinutes * 60_000,
      has_human_input: human,
      event_count: 40,
    });
    const rows = [row('ended-no-input', 35, 0), row('ended-with-input', 35, 1), row('still-going-no-input', 2, 0)];
    await server.db.insertInto('sessions').values(rows.map(sessionRow)).execute();
    const body = await page('', fresh.id);
    const verdict = Object.fromEntries(body.sessions.map((s) => [s.sessionId, [s.isBot, s.botReason]]));
    expect(verdict['ended-no-input']).toEqual([true, BOT_REASONS.noInput]);
    expect(verdict['ended-with-input']).toEqual([false, null]);
    expect(verdict['still-going-no-input']).toEqual([false, null]);
    expect(body.counts).toEqual({ total: 3, human: 2, bot: 1 });
  });

  it('says which sessions were closed at a cap, so the list never calls them recording (common/recording-now.ts)', async () => {
    const fresh = await newCampaign();
    const now = Date.now();
    const row = (id: string, closed: string | null): NewSession => ({
      campaign_id: fresh.id,
      id,
      started_at: now - 30_000,
      last_activity_at: now - 1_000,
      closed_reason: closed,
    });
    await server.db
      .insertInto('sessions')
      .values([row('capped', 'Session reached 2000 batches'), row('open', null)].map(sessionRow))
      .execute();
    const body = await page('', fresh.id);
    const byId = Object.fromEntries(body.sessions.map((s) => [s.sessionId, s]));
    expect(byId.capped.closed).toBe(true);
    expect(recordingNow(byId.capped, now)).toBe(false);
    expect(byId.open.closed).toBeUndefined();
    expect(recordingNow(byId.open, now)).toBe(true);
  });

  it('answers an empty page for a campaign without sessions', async () => {
    const empty = await newCampaign();
    expect(await page('', empty.id)).toEqual({
      sessions: [],
      nextCursor: null,
      counts: { total: 0, human: 0, bot: 0 },
      storage: { usedBytes: 0, quotaBytes: server.config.limits.storageQuotaBytes, full: false },
    });
  });

  it.each([
    ['limit=0', /limit/],
    ['limit=201', /limit/],
    ['limit=ten', /limit/],
    ['type=robot', /type/],
    ['order=asc', /unknown field "order"/],
    ['sort=asc', /sort/],
    ['country=Germany', /country/],
    ['device=watch', /device/],
    ['hasErrors=yes', /hasErrors/],
    ['minDuration=-1', /minDuration/],
    [`cursor=${Buffer.from('[1,"x"]').toString('base64url')}&sort=errors`, 'Invalid cursor'],
    ['cursor=not-a-cursor', 'Invalid cursor'],
    [`cursor=${Buffer.from('["x","y"]').toString('base64url')}`, 'Invalid cursor'],
    [`search=${'x'.repeat(101)}`, /search/],
  ])('answers 400 for a bad query (%s)', async (query, error) => {
    const response = await list(campaign.id, query);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string };
    if (typeof error === 'string') expect(body.error).toBe(error);
    else expect(body.error).toMatch(error);
  });

  it('answers 400 for a malformed campaign id and 404 for an unknown one', async () => {
    const bad = await list('nope', '');
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'Invalid campaign id' }]);
    const unknown = await list(crypto.randomUUID(), '');
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'Campaign not found' }]);
  });

  it('answers 401 without a session', async () => {
    const response = await list(campaign.id, '', {});
    expect([response.status, await response.json()]).toEqual([401, { error: 'Unauthorized' }]);
  });
});
