import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import { PEOPLE_PAGE, type PeoplePage } from '../../common/api/people.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import type { Campaign } from '../../common/api-types.js';
import { createCampaign, info, pageEvents, postBatch, sessionId } from './ingest-support.js';

// The people directory (GET /api/v1/people/{campaignId}/): identified people a page at a time in
// id order, with first and last seen, sessions, devices and traits; searched by id prefix and by
// trait; owner only. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
const T0 = Date.UTC(2026, 10, 2, 9);
/** Many people with one session each, past two pages. */
const CROWD = Array.from({ length: 2 * PEOPLE_PAGE + 20 }, (_, i) => `p-${String(i).padStart(3, '0')}`);

let seq = 0;
async function seed(userId: string | null, at: number, device: string, traits?: Record<string, unknown>) {
  await insertSession(server.db, {
    campaign_id: campaign.id,
    id: `dir-${String(seq++).padStart(4, '0')}`,
    started_at: at,
    last_activity_at: at + 60_000,
    device,
    user_id: userId,
    traits: traits ? JSON.stringify(traits) : null,
  });
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Directory Owner');
  campaign = await createCampaign(server, owner.headers, 'Directory');
  await seed('ann@example.test', T0, 'desktop', { plan: 'free' });
  await seed('ann@example.test', T0 + 1000, 'mobile', { plan: 'Pro', seats: 3 });
  await seed('ann@example.test', T0 + 2000, 'mobile');
  await seed('bob', T0 + 3000, 'tablet', { plan: 'team', team: 'PRO' });
  for (const id of ['cust-001', 'cust-002', 'cust-010']) await seed(id, T0, 'desktop');
  await seed(null, T0, 'desktop');
  for (const id of CROWD) await seed(id, T0, 'desktop');
  // One identified as a page does it: the id and traits arrive by ingest, in a later batch.
  const id = sessionId();
  expect((await postBatch(server, campaign.id, { sessionId: id, seq: 0, info: info(), events: pageEvents(Date.now() - 4000) })).status).toBe(200);
  const identify = {
    type: 5,
    data: { tag: PEOPLE_TAGS.identify, payload: { userId: 'customer-4711', traits: { plan: 'pro' } } },
    timestamp: Date.now() - 3000,
  };
  expect((await postBatch(server, campaign.id, { sessionId: id, seq: 1, info: null, events: [identify] })).status).toBe(200);
});
afterAll(async () => server?.close());

async function page(query: string, headers = owner.headers, campaignId = campaign.id) {
  return fetch(`${server.url}/api/v1/people/${campaignId}/?${query}`, { headers });
}

async function ok(query: string): Promise<PeoplePage> {
  const response = await page(query);
  expect(response.status).toBe(200);
  return (await response.json()) as PeoplePage;
}

/** Every id a search lists, following the cursor, and the size of each page. */
async function everyPage(q: string): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor = '';
  do {
    const body = await ok(new URLSearchParams({ q, ...(cursor ? { cursor } : {}) }).toString());
    ids.push(...body.people.map((p) => p.userId));
    sizes.push(body.people.length);
    cursor = body.nextCursor ?? '';
  } while (cursor);
  return { ids, sizes };
}

const everyone = ['ann@example.test', 'bob', 'cust-001', 'cust-002', 'cust-010', 'customer-4711', ...CROWD].sort();

describe('the people directory', () => {
  it('lists each identified person once with first and last seen, sessions, devices and newest traits', async () => {
    const first = await ok('');
    expect(first.people.map((p) => p.userId)).toEqual(everyone.slice(0, PEOPLE_PAGE));
    expect(first.people[0]).toEqual({
      userId: 'ann@example.test',
      firstSeen: T0,
      lastSeen: T0 + 2000 + 60_000,
      sessions: 3,
      devices: ['mobile', 'desktop'],
      traits: { plan: 'Pro', seats: 3 },
    });
    expect(first.people.find((p) => p.userId === 'customer-4711')).toMatchObject({ sessions: 1, traits: { plan: 'pro' } });
  });

  it('pages by cursor through everyone, in id order, each page at most PEOPLE_PAGE', async () => {
    const { ids, sizes } = await everyPage('');
    expect(ids).toEqual(everyone);
    expect(sizes).toEqual([PEOPLE_PAGE, PEOPLE_PAGE, everyone.length - 2 * PEOPLE_PAGE]);
    expect((await everyPage('p-')).ids).toEqual(CROWD);
  });

  it('finds people by the start of their id, case as written', async () => {
    expect((await everyPage('cust-0')).ids).toEqual(['cust-001', 'cust-002', 'cust-010']);
    expect((await everyPage('cust-01')).ids).toEqual(['cust-010']);
    expect((await everyPage('  ann@')).ids).toEqual(['ann@example.test']);
    expect((await everyPage('CUST')).ids).toEqual([]);
    expect((await everyPage('ust')).ids).toEqual([]);
  });

  it('finds people by a trait as key=value, or by a value alone, without ASCII case', async () => {
    expect((await everyPage('plan=pro')).ids).toEqual(['ann@example.test', 'customer-4711']);
    expect((await everyPage('plan=PRO')).ids).toEqual(['ann@example.test', 'customer-4711']);
    expect((await everyPage('seats=3')).ids).toEqual(['ann@example.test']);
    expect((await everyPage('team=pro')).ids).toEqual(['bob']);
    expect((await everyPage('plan=pr')).ids).toEqual([]);
    expect((await everyPage('Pro')).ids).toEqual(['ann@example.test', 'bob', 'customer-4711']);
  });

  it('refuses another owner, an unknown campaign, a forged cursor and an over-long search', async () => {
    const other = await userSession(server, 'Not The Owner');
    const theirs = await page('', other.headers);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(await theirs.json())).not.toContain('ann@');
    expect((await page('', owner.headers, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const forged = await page('cursor=not*base64');
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: 'Invalid cursor' });
    const long = await page(`q=${'x'.repeat(500)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toMatch(/q/);
  });

  it('leaves an erased person out, traits and all', async () => {
    expect((await fetch(`${server.url}/api/v1/people/${campaign.id}/bob`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect((await everyPage('b')).ids).toEqual([]);
    expect((await everyPage('team=pro')).ids).toEqual([]);
  });
});
