import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../common/api-types.js';
import { sessionRow } from '../../server/sessions/rows.js';
import { info, makeCampaign, pageEvents, postBatch, serverWithOwner, sessionId } from './ingest-support.js';

// What the dashboard and the sessions page show of a campaign's use: sessions counted against
// its limit, a deleted session freeing its place, and when it last received data.

let { server, owner } = {} as Awaited<ReturnType<typeof serverWithOwner>>;

beforeAll(async () => {
  ({ server, owner } = await serverWithOwner('Usage Owner'));
});
afterAll(async () => server?.close());

async function listed(campaignId: string): Promise<Campaign> {
  const response = await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: owner.headers });
  const { data } = (await response.json()) as { data: Campaign[] };
  return data.find((campaign) => campaign.id === campaignId) as Campaign;
}

const visit = (campaignId: string, id = sessionId()) => postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() });
const deleteSession = (campaignId: string, id: string) =>
  fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/${id}`, { method: 'DELETE', headers: owner.headers });

describe('a campaign’s use, as the campaign list answers it', () => {
  it('counts admitted sessions and says when data last arrived (null before the first)', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, limit: 5 });
    expect(await listed(campaignId)).toMatchObject({ limit: 5, session_count: 0, last_data_at: null });

    const before = Date.now();
    expect((await visit(campaignId)).status).toBe(200);
    expect((await visit(campaignId)).status).toBe(200);
    const after = Date.now();
    const campaign = await listed(campaignId);
    expect(campaign.session_count).toBe(2);
    expect(campaign.last_data_at).toBeGreaterThanOrEqual(before);
    expect(campaign.last_data_at).toBeLessThanOrEqual(after);
  });

  it('says how much of its storage quota the campaign holds: the bytes its sessions counted, against the quota', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, limit: 5 });
    const quotaBytes = server.config.limits.storageQuotaBytes;
    expect((await listed(campaignId)).storage).toEqual({ usedBytes: 0, quotaBytes, full: false });
    expect((await visit(campaignId)).status).toBe(200);
    const stored = await server.db.selectFrom('sessions').select('byte_count').where('campaign_id', '=', campaignId).executeTakeFirstOrThrow();
    expect(Number(stored.byte_count)).toBeGreaterThan(0);
    await expect.poll(async () => (await listed(campaignId)).storage?.usedBytes, { timeout: 10_000 }).toBe(Number(stored.byte_count));
  });

  it('frees a place when a session is deleted: a refused visitor is admitted afterwards', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, limit: 2 });
    const first = sessionId();
    expect((await visit(campaignId, first)).status).toBe(200);
    expect((await visit(campaignId)).status).toBe(200);
    expect((await visit(campaignId)).status).toBe(403);
    expect((await listed(campaignId)).session_count).toBe(2);

    expect((await deleteSession(campaignId, first)).status).toBe(200);
    expect((await listed(campaignId)).session_count).toBe(1);
    expect((await visit(campaignId)).status).toBe(200);
    expect((await listed(campaignId)).session_count).toBe(2);
  });

  it('never counts below 0, and deleting an unknown session frees nothing', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, limit: 3 });
    // A session stored without being counted (e.g. before the counter existed).
    await server.db
      .insertInto('sessions')
      .values(sessionRow({ campaign_id: campaignId, id: 'uncounted', started_at: Date.now() }))
      .execute();
    expect((await deleteSession(campaignId, 'uncounted')).status).toBe(200);
    expect((await listed(campaignId)).session_count).toBe(0);

    expect((await visit(campaignId)).status).toBe(200);
    expect((await deleteSession(campaignId, 'no-such-session')).status).toBe(404);
    expect((await listed(campaignId)).session_count).toBe(1);
  });

  it('answers the same fields from create and update as from the list', async () => {
    const created = await fetch(`${server.url}/api/v1/campaign/create`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fresh', domains: 'shop.example.com', limit: 3, start_date_time: 1, end_date_time: 4e12 }),
    });
    const { data } = (await created.json()) as { data: Campaign };
    expect(data).toMatchObject({ session_count: 0, last_data_at: null });
    expect((await visit(data.id)).status).toBe(200);
    const updated = await fetch(`${server.url}/api/v1/campaign/update/${data.id}`, {
      method: 'PATCH',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed' }),
    });
    expect(((await updated.json()) as { data: Campaign }).data).toEqual(await listed(data.id));
  });
});
