import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { Campaign } from '../../common/api-types.js';
import type { Funnel, FunnelResult } from '../../common/api/funnels.js';
import type { SessionsResponse } from '../../common/api/sessions.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
let funnel: Funnel;

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 10);
const RANGE = `from=${T0}&to=${T0 + 86_400_000}`;
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
/** Each session's pages: its first loaded at its start, the others when its last batch came (here a minute later). */
const VISITS: [string, string][] = [
  [id(1), '/\n/product/mug\n/cart'], // converted
  [id(2), '/\n/about\n/product/mug'], // dropped off after step 2
  [id(3), '/'], // dropped off after step 1
  [id(4), '/product/mug\n/cart'], // never entered
];

const json = (method: string, body: unknown, headers = owner.headers) => ({
  method,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const funnels = (path = '', init?: RequestInit) => fetch(`${server.url}/api/v1/funnels/${campaign.id}${path}`, init ?? { headers: owner.headers });
async function listed(query: string): Promise<string[]> {
  const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?${query}`, { headers: owner.headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as SessionsResponse).sessions.map((s) => s.sessionId).sort();
}

async function newCampaign(): Promise<Campaign> {
  const body = { name: 'Shop', domains: 'shop.example.com', limit: 0, start_date_time: T0, end_date_time: T0 + 1e10 };
  const response = await fetch(`${server.url}/api/v1/campaign/create`, json('POST', body));
  return ((await response.json()) as { data: Campaign }).data;
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Funnel Owner');
  campaign = await newCampaign();
  for (const [i, [sessionId, pages]] of VISITS.entries()) {
    const start = T0 + i * 10 * MINUTE;
    await insertSession(server.db, { campaign_id: campaign.id, id: sessionId, started_at: start, last_activity_at: start + MINUTE, pages });
  }
  const response = await funnels('', json('POST', { name: 'Buy', steps: [{ page: '/' }, { page: '/product/*' }, { page: '/cart' }], withinMs: 3_600_000 }));
  expect(response.status).toBe(201);
  funnel = (await response.json()) as Funnel;
});
afterAll(async () => server?.close());

describe('funnels', () => {
  it('keeps a funnel: listed, read, renamed', async () => {
    expect(funnel).toMatchObject({ name: 'Buy', withinMs: 3_600_000, steps: [{ page: '/' }, { page: '/product/*' }, { page: '/cart' }] });
    expect(((await (await funnels()).json()) as { funnels: Funnel[] }).funnels.map((f) => f.id)).toEqual([funnel.id]);
    const renamed = await funnels(`/${funnel.id}`, json('PATCH', { name: ' Purchase ' }));
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as Funnel).name).toBe('Purchase');
    expect(((await (await funnels(`/${funnel.id}`)).json()) as Funnel).name).toBe('Purchase');
  });

  it('counts the sessions entering each step, conversion, drop-off and the median time from the step before', async () => {
    const response = await funnels(`/${funnel.id}/result?${RANGE}`);
    expect(response.status).toBe(200);
    const result = (await response.json()) as FunnelResult;
    expect(result.steps).toEqual([
      { sessions: 3, conversion: 1, droppedOff: 0, medianMsFromPrevious: null },
      { sessions: 2, conversion: 0.6667, droppedOff: 1, medianMsFromPrevious: MINUTE },
      { sessions: 1, conversion: 0.3333, droppedOff: 1, medianMsFromPrevious: 0 },
    ]);
  });

  it('counts again when its steps change (its kept days go)', async () => {
    const changed = await funnels(`/${funnel.id}`, json('PATCH', { steps: [{ page: '/' }, { page: '/cart' }] }));
    expect(changed.status).toBe(200);
    const result = (await (await funnels(`/${funnel.id}/result?${RANGE}`)).json()) as FunnelResult;
    expect(result.steps.map((s) => s.sessions)).toEqual([3, 1]);
    await funnels(`/${funnel.id}`, json('PATCH', { steps: [{ page: '/' }, { page: '/product/*' }, { page: '/cart' }] }));
    const again = (await (await funnels(`/${funnel.id}/result?${RANGE}`)).json()) as FunnelResult;
    expect(again.steps.map((s) => s.sessions)).toEqual([3, 2, 1]);
  });

  it('lists the sessions that reached a step, dropped off after it, or converted', async () => {
    expect(await listed(`funnel=${funnel.id}`)).toEqual([id(1), id(2), id(3)]);
    expect(await listed(`funnel=${funnel.id}&step=2`)).toEqual([id(1), id(2)]);
    expect(await listed(`funnel=${funnel.id}&step=2&outcome=dropped`)).toEqual([id(2)]);
    expect(await listed(`funnel=${funnel.id}&step=1&outcome=dropped`)).toEqual([id(3)]);
    expect(await listed(`funnel=${funnel.id}&outcome=dropped`)).toEqual([id(2), id(3)]);
    expect(await listed(`funnel=${funnel.id}&outcome=converted`)).toEqual([id(1)]);
  });

  it('follows a session as its pages grow', async () => {
    await server.db
      .updateTable('sessions')
      .set({ pages: '/\n/product/cup', last_activity_at: T0 + 25 * MINUTE })
      .where('campaign_id', '=', campaign.id)
      .where('id', '=', id(3))
      .execute();
    expect(await listed(`funnel=${funnel.id}&step=2&outcome=dropped`)).toEqual([id(2), id(3)]);
    const result = (await (await funnels(`/${funnel.id}/result?${RANGE}`)).json()) as FunnelResult;
    expect(result.steps.map((s) => s.sessions)).toEqual([3, 3, 1]);
  });

  it.each([
    [{ name: 'x', steps: [{ click: ' ' }] }, 'A click step names a selector or a text, an event step an event'],
    [{ name: 'x', steps: [{ page: 'cart' }] }, 'A page pattern starts with / (or *): cart'],
    [{ name: 'x', steps: [{ page: `/${'*a'.repeat(11)}` }] }, /^A page pattern has at most 10 stars \(\*\): /],
    [{ name: 'x', steps: [{ page: `/${'x'.repeat(200)}` }] }, /^A page pattern has at most 200 characters: /],
    [{ name: 'x', steps: [{ page: '/cart?step=2' }] }, /^A page pattern is a path: no query, fragment or spaces: /],
    [{ name: ' ', steps: [{ page: '/' }] }, 'Funnel name is required'],
    [{ name: 'x', steps: [] }, /steps/],
    [{ name: 'x', steps: Array.from({ length: 11 }, () => ({ page: '/' })) }, /steps/],
    [{ name: 'x', steps: [{ page: '/' }], withinMs: 0 }, /withinMs/],
  ])('answers 400 for %j', async (body, error) => {
    const response = await funnels('', json('POST', body));
    expect(response.status).toBe(400);
    const { error: reason } = (await response.json()) as { error: string };
    if (typeof error === 'string') expect(reason).toBe(error);
    else expect(reason).toMatch(error);
  });

  it('answers 400 for a step the funnel lacks, or a step without a funnel; 404 for an unknown funnel', async () => {
    const get = (query: string) => fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?${query}`, { headers: owner.headers });
    expect([(await get(`funnel=${funnel.id}&step=4`)).status, (await get('step=2')).status, (await get(`funnel=${crypto.randomUUID()}`)).status]).toEqual([
      400, 400, 404,
    ]);
    expect((await get(`funnel=${funnel.id}&step=3&outcome=dropped`)).status).toBe(400);
    expect((await funnels(`/${crypto.randomUUID()}/result`)).status).toBe(404);
    // An id no funnel can have (a NUL, which PostgreSQL refuses in text) is refused before any lookup, on every route.
    expect((await get('funnel=%00')).status).toBe(400);
    for (const [path, init] of [
      ['/%00', undefined],
      ['/%00/result', undefined],
      ['/%00', json('PATCH', { name: 'x' })],
      ['/%00', { method: 'DELETE', headers: owner.headers }],
    ] as const)
      expect((await funnels(path, init)).status, path).toBe(400);
  });

  it("answers 404 for another workspace's campaign and for a funnel of another campaign", async () => {
    const other = await userSession(server, 'Someone Else');
    expect((await funnels('', { headers: other.headers })).status).toBe(404);
    expect((await funnels(`/${funnel.id}/result`, { headers: other.headers })).status).toBe(404);
    expect((await funnels(`/${funnel.id}`, { method: 'DELETE', headers: other.headers })).status).toBe(404);
    const mine = await newCampaign();
    expect((await fetch(`${server.url}/api/v1/funnels/${mine.id}/${funnel.id}/result`, { headers: owner.headers })).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/streaming/sessions/${mine.id}/?funnel=${funnel.id}`, { headers: owner.headers })).status).toBe(404);
  });

  it('leaves no page visit of a deleted session, and no funnel of a deleted campaign', async () => {
    const pages = async () => (await server.db.selectFrom('session_pages').select('session_id').where('campaign_id', '=', campaign.id).execute()).length;
    expect(await pages()).toBe(10);
    expect((await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/${id(4)}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect(await pages()).toBe(8);
    expect((await funnels(`/${funnel.id}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect((await funnels(`/${funnel.id}`)).status).toBe(404);
    await funnels('', json('POST', { name: 'Again', steps: [{ page: '/' }] }));
    expect((await fetch(`${server.url}/api/v1/campaign/delete/${campaign.id}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect(await server.db.selectFrom('funnels').select('id').where('campaign_id', '=', campaign.id).execute()).toEqual([]);
    expect(await pages()).toBe(0);
  });
});
