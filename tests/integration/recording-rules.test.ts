import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import type { Campaign } from '../../common/api-types.js';
import { DEFAULT_MASKED_PARAMS } from '../../common/recording-rules.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId } from './ingest-support.js';
import { DEFAULT_RULES } from './recording-rules-support.js';

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

const send = (method: string, path: string, body: unknown, headers = owner.headers) =>
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
    expect(response.status).toBe(403);
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

  it('keep the path only otherwise, whatever the sender sent', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    expect(await visit(campaignId)).toEqual({ hrefs: ['https://shop.example.com/search'], entry: 'https://shop.example.com/search', pages: '/search' });
  });
});
