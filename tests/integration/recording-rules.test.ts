import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import type { Campaign } from '../../common/api-types.js';
import { DEFAULT_MASKED_PARAMS } from '../../common/recording-rules.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId } from './ingest-support.js';
import { DEFAULT_RULES } from './recording-rules-support.js';
import { insertSession } from '../../server/recordings/seed.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';

// A campaign's recording rules: set and checked through the campaign API, told to the tracker
// (GET on the ingest address), and applied again by ingest to whatever a sender sent.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let stranger: Awaited<ReturnType<typeof userSession>>;

const valid = { name: 'Rules', domains: 'shop.example.com', limit: 0, start_date_time: 1, end_date_time: 2e12 };

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Rules Owner');
  stranger = await userSession(server, 'Rules Stranger');
});
afterAll(async () => server?.close());

const send = (method: string, path: string, body: unknown, headers: Record<string, string> = owner.headers) =>
  fetch(`${server.url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function created(body: Record<string, unknown>): Promise<Campaign> {
  const response = await send('POST', '/api/v1/campaign/create', { ...valid, ...body });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Campaign }).data;
}

async function refusal(response: Response): Promise<[number, string]> {
  return [response.status, ((await response.json()) as { error: string }).error];
}

describe('the campaign API’s recording rules', () => {
  it('gives a new campaign the defaults and keeps what the owner chose', async () => {
    expect(await created({})).toMatchObject(DEFAULT_RULES);
    const chosen = await created({ keep_query: true, masked_params: ['Token', 'utm_id', 'token'] });
    expect(chosen).toMatchObject({ keep_query: true, masked_params: ['token', 'utm_id'] });
    const listed = ((await (await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: owner.headers })).json()) as { data: Campaign[] }).data;
    expect(listed.find((c) => c.id === chosen.id)).toEqual(chosen);
  });

  it.each([
    [{ keep_query: 'yes' }, 'keep_query must be true or false'],
    [{ masked_params: 'token' }, /^masked_params must be a list of at most 50 parameter names/],
    [{ masked_params: ['a b'] }, /^masked_params must be a list/],
    [{ masked_params: [''] }, /^masked_params must be a list/],
    [{ masked_params: ['x'.repeat(101)] }, /^masked_params must be a list/],
    [{ masked_params: Array.from({ length: 51 }, (_, i) => `p${i}`) }, /^masked_params must be a list/],
  ])('refuses a wrong value with 400 and its reason, on create and on update (%#)', async (body, reason) => {
    const [status, error] = await refusal(await send('POST', '/api/v1/campaign/create', { ...valid, ...body }));
    expect(status).toBe(400);
    expect(error).toMatch(reason);
    const campaign = await created({});
    const [updateStatus, updateError] = await refusal(await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, body));
    expect([updateStatus, updateError]).toEqual([400, error]);
  });

  it('lets only the owner change them', async () => {
    const campaign = await created({});
    const response = await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, { keep_query: true }, stranger.headers);
    expect(response.status).toBe(404);
    const stored = await server.db.selectFrom('campaigns').select('keep_query').where('id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(stored.keep_query).toBe(0);
    const mine = await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, { keep_query: true, masked_params: null });
    expect(((await mine.json()) as { data: Campaign }).data).toMatchObject({ keep_query: true, masked_params: DEFAULT_MASKED_PARAMS });
  });
});

describe('the rules the tracker reads', () => {
  const rules = (campaignId: string, origin = 'https://shop.example.com') => fetch(`${server.url}/api/v1/ingest/${campaignId}`, { headers: { origin } });

  it('are the campaign’s, for the origins it lists only', async () => {
    const pathOnly = await makeCampaign(server);
    expect(await (await rules(pathOnly)).json()).toEqual({});
    const keeps = await makeCampaign(server, { columns: { keep_query: 1, masked_params: 'token\ncode' } });
    const response = await rules(keeps);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(await response.json()).toEqual({ query: ['token', 'code'] });
    expect(await refusal(await rules(keeps, 'https://elsewhere.example'))).toEqual([403, 'Origin not allowed for this campaign']);
    const ended = await makeCampaign(server, { start: 1, end: 2 });
    expect(await refusal(await rules(ended))).toEqual([403, 'Campaign has ended']);
  });
});

async function storedPages(campaignId: string, id: string) {
  const res = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${id}`, { headers: owner.headers });
  const events = ((await res.json()) as { events: { type: number; data: { href?: string } }[] }).events;
  const row = await server.db
    .selectFrom('sessions')
    .select(['entry_url', 'pages'])
    .where('campaign_id', '=', campaignId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { hrefs: events.filter((e) => e.type === 4).map((e) => e.data.href), entry: row.entry_url, pages: row.pages };
}

describe('page addresses ingest stores', () => {
  const visit = async (campaignId: string) => {
    const id = sessionId();
    const events = pageEvents();
    events[0].data.href = 'https://shop.example.com/search?q=shoes&token=abc#results';
    const body = {
      sessionId: id,
      seq: 0,
      info: info({ url: 'https://shop.example.com/search?q=shoes&Token=abc', referrer: 'https://mail.example/?m=1' }),
      events,
    };
    expect((await postBatch(server, campaignId, body)).status).toBe(200);
    return storedPages(campaignId, id);
  };

  it('keep the query string, named parameters masked, where the campaign asks for it', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { keep_query: 1 } });
    expect(await visit(campaignId)).toEqual({
      hrefs: ['https://shop.example.com/search?q=shoes&token=*'],
      entry: 'https://shop.example.com/search?q=shoes&Token=*',
      pages: '/search',
    });
  });

  it('keep the path only in a share link without details, even where the campaign keeps query strings', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { keep_query: 1 } });
    const id = sessionId();
    const events = pageEvents();
    events[0].data.href = 'https://shop.example.com/search?q=shoes&token=abc';
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events })).status).toBe(200);
    const hrefsOf = async (includeDetails: boolean) => {
      const link = await send('POST', `/api/v1/replay/share/${campaignId}/${id}`, { expiresIn: '1h', includeDetails });
      const { token } = (await link.json()) as { token: string };
      const shared = (await (await fetch(`${server.url}/api/v1/shared/${token}`)).json()) as { events: { type: number; data: { href?: string } }[] };
      return shared.events.filter((e) => e.type === 4).map((e) => e.data.href);
    };
    expect(await hrefsOf(false)).toEqual(['https://shop.example.com/search']);
    expect(await hrefsOf(true)).toEqual(['https://shop.example.com/search?q=shoes&token=*']);
  });

  it('keep the path only otherwise, whatever the sender sent', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    expect(await visit(campaignId)).toEqual({ hrefs: ['https://shop.example.com/search'], entry: 'https://shop.example.com/search', pages: '/search' });
  });
});

describe('the recording rules of the campaign API', () => {
  const chosen = {
    sample_rate: 25,
    min_duration_ms: 5000,
    url_include: ['/shop/*'],
    url_exclude: ['/shop/account*'],
    block_selector: '.price, [data-private]',
    privacy: 'strict',
    consent: 'required',
    consent_buffer_seconds: 10,
  };

  it('keeps what the owner chose, and tells the tracker only what differs from its defaults', async () => {
    const campaign = await created({ domains: 'shop.example.com', ...chosen });
    expect(campaign).toMatchObject(chosen);
    const rules = await fetch(`${server.url}/api/v1/ingest/${campaign.id}`, { headers: { origin: 'https://shop.example.com' } });
    expect(await rules.json()).toEqual({
      sample: 25,
      include: ['/shop/*'],
      exclude: ['/shop/account*'],
      block: '.price, [data-private]',
      privacy: 'strict',
      consent: 1,
      buffer: 10,
    });
    const changed = await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, { privacy: 'relaxed', consent: null, url_include: [] });
    expect(((await changed.json()) as { data: Campaign }).data).toMatchObject({ ...chosen, privacy: 'relaxed', consent: 'none', url_include: [] });
  });

  it.each([
    [{ sample_rate: 0 }, 'sample_rate must be a whole number of per cent from 1 to 100'],
    [{ sample_rate: 101 }, 'sample_rate must be a whole number of per cent from 1 to 100'],
    [{ sample_rate: 50.5 }, 'sample_rate must be a whole number of per cent from 1 to 100'],
    [{ min_duration_ms: -1 }, /^min_duration_ms must be a whole number of milliseconds from 0 to 600000$/],
    [{ min_duration_ms: 600_001 }, /^min_duration_ms must be/],
    [{ url_include: ['shop/*'] }, 'url_include: A page pattern starts with / (or *): shop/*'],
    [{ url_exclude: ['/a b'] }, 'url_exclude: A page pattern is a path: no query, fragment or spaces: /a b'],
    [{ url_exclude: [`/${'x'.repeat(200)}`] }, /^url_exclude must be a list of at most 20 page patterns, each up to 200 characters and 10 stars/],
    [{ url_exclude: [`/${'*a'.repeat(40)}`] }, /^url_exclude: A page pattern has at most 10 stars \(\*\): /],
    [{ url_include: Array.from({ length: 21 }, (_, i) => `/p${i}`) }, /^url_include must be a list/],
    [{ block_selector: 'x'.repeat(1001) }, 'block_selector must be a CSS selector of at most 1000 characters'],
    [{ block_selector: '.a { color: red }' }, /^block_selector must be a CSS selector/],
    [{ privacy: 'none' }, 'privacy must be one of strict, balanced, relaxed'],
    [{ consent: 'maybe' }, 'consent must be one of none, required'],
    [{ consent_buffer_seconds: 61 }, 'consent_buffer_seconds must be a whole number from 0 to 60'],
  ])('refuses a value out of bounds with 400 and its reason, on create and update (%#)', async (body, reason) => {
    const [status, error] = await refusal(await send('POST', '/api/v1/campaign/create', { ...valid, ...body }));
    expect(status).toBe(400);
    expect(error).toMatch(reason);
    const campaign = await created({});
    expect(await refusal(await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, body))).toEqual([400, error]);
  });

  it('lets no one but the owner change them', async () => {
    const campaign = await created({});
    expect((await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, { consent: 'required' }, stranger.headers)).status).toBe(404);
    expect((await send('PATCH', `/api/v1/campaign/update/${campaign.id}`, { consent: 'required' }, {})).status).toBe(401);
    const stored = await server.db.selectFrom('campaigns').select(['consent', 'privacy']).where('id', '=', campaign.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ consent: 'none', privacy: 'balanced' });
  });
});

describe('what ingest applies again, whoever sent the batch', () => {
  const batch = (id: string, events = pageEvents()) => ({ sessionId: id, seq: 0, info: info(), events });

  it('stores nothing of a campaign that needs consent unless the batch comes with it', async () => {
    const campaignId = await makeCampaign(server, { columns: { consent: 'required' } });
    const id = sessionId();
    expect(await refusal(await postBatch(server, campaignId, batch(id)))).toEqual([403, 'This campaign records a visitor only with their consent']);
    const other = await fetch(`${server.url}/api/v1/ingest/${campaignId}?consent=0`, {
      method: 'POST',
      body: JSON.stringify(batch(id)),
      headers: { origin: 'https://shop.example.com' },
    });
    expect(other.status).toBe(403);
    expect(await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute()).toEqual([]);
    const given = await fetch(`${server.url}/api/v1/ingest/${campaignId}?consent=1`, {
      method: 'POST',
      body: JSON.stringify(batch(id)),
      headers: { origin: 'https://shop.example.com' },
    });
    expect(given.status).toBe(200);
  });

  it('refuses the sessions outside the sample, and drops the events of pages not recorded', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { sample_rate: 50, url_exclude: '/account*' } });
    const ids = Array.from({ length: 40 }, () => sessionId());
    const statuses = await Promise.all(ids.map(async (id) => [id, (await postBatch(server, campaignId, batch(id))).status] as const));
    const storedIds = (await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute()).map((s) => s.id).sort();
    expect(storedIds).toEqual(
      statuses
        .filter(([, status]) => status === 200)
        .map(([id]) => id)
        .sort(),
    );
    expect(statuses.every(([, status]) => status === 200 || status === 403)).toBe(true);
    expect(storedIds.length).toBeGreaterThan(5);
    expect(storedIds.length).toBeLessThan(35);

    const id = storedIds[0];
    const t = Date.now() - 2000;
    const later = [
      { type: 4, data: { href: 'https://shop.example.com/account/orders', width: 1, height: 1 }, timestamp: t },
      { type: 3, data: { source: 2, type: 2, id: 1, x: 1, y: 1 }, timestamp: t + 1 },
      { type: 4, data: { href: 'https://shop.example.com/cart', width: 1, height: 1 }, timestamp: t + 2 },
    ];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: later })).status).toBe(200);
    expect((await storedPages(campaignId, id)).hrefs).toEqual(['https://shop.example.com/cart', 'https://shop.example.com/cart']);
  });
});

describe('the shortest session kept', () => {
  it('deletes ended sessions shorter than it, and keeps longer, still open or starred ones', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { min_duration_ms: 5000 } });
    const now = Date.now();
    const ended = now - SESSION_IDLE_MS - 1000;
    const session = (id: string, started: number, last: number) =>
      insertSession(server.db, { campaign_id: campaignId, id, started_at: started, last_activity_at: last });
    await session('short-ended-01', ended - 4999, ended);
    await session('long-ended-001', ended - 5000, ended);
    await session('short-open-001', now - 1000, now);
    await session('short-star-001', ended - 10, ended);
    await server.db.insertInto('session_stars').values({ campaign_id: campaignId, session_id: 'short-star-001', starred_at: now }).execute();
    const untouched = await makeCampaign(server, { ownerId: owner.userId });
    await insertSession(server.db, { campaign_id: untouched, id: 'short-other-01', started_at: ended - 1, last_activity_at: ended });
    await sweepExpiredRecordings(server.db, { now });
    const left = await server.db.selectFrom('sessions').select('id').where('campaign_id', 'in', [campaignId, untouched]).orderBy('id').execute();
    expect(left.map((s) => s.id)).toEqual(['long-ended-001', 'short-open-001', 'short-other-01', 'short-star-001']);
  });

  it('judges a session by the duration the list shows: a one-batch visit is as long as its active time', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { min_duration_ms: 5000 } });
    const now = Date.now();
    const ended = now - SESSION_IDLE_MS - 1000;
    // One batch: no time between first and last batch by the server's clock, 8 s of activity by the events'.
    const visit = (id: string, active: number) =>
      insertSession(server.db, { campaign_id: campaignId, id, started_at: ended, last_activity_at: ended, duration_ms: 0, active_ms: active });
    await visit('one-batch-long', 8000);
    await visit('one-batch-shrt', 4000);
    await sweepExpiredRecordings(server.db, { now });
    const left = await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute();
    expect(left.map((s) => s.id)).toEqual(['one-batch-long']);
  });
});
