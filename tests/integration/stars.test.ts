import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import { STAR_WRITES_PER_USER } from '../../server/stars/repository.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { createCampaign, ownerAndOther } from './ingest-support.js';

// Stars: owner-only PUT/DELETE, the `starred=true` filter, and retention keeping starred sessions.

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();

let { server, owner, other, campaign } = {} as Awaited<ReturnType<typeof ownerAndOther>>;

beforeAll(async () => {
  ({ server, owner, other, campaign } = await ownerAndOther('Star Owner', 'Someone Else', 'Stars'));
  for (const id of ['session-one-0001', 'session-two-0002', 'session-three-03'])
    await insertSession(server.db, { campaign_id: campaign.id, id, started_at: NOW - DAY });
});
afterAll(async () => server?.close());

const starUrl = (sessionId: string, campaignId = campaign.id) => `${server.url}/api/v1/streaming/sessions/${campaignId}/${sessionId}/star`;
const star = (sessionId: string, method = 'PUT', headers: Record<string, string> = owner.headers, campaignId = campaign.id) =>
  fetch(starUrl(sessionId, campaignId), { method, headers });

async function listed(query = ''): Promise<SessionsResponse> {
  const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?${query}`, { headers: owner.headers });
  expect(response.status).toBe(200);
  return (await response.json()) as SessionsResponse;
}

describe('stars', () => {
  it('stars and unstars a session, shows the star in the list and filters by it', async () => {
    const put = await star('session-two-0002');
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ starred: true });
    // Setting it twice is no error.
    expect((await star('session-two-0002')).status).toBe(200);
    expect((await listed('starred=true')).sessions.map((s) => s.sessionId)).toEqual(['session-two-0002']);
    const all = await listed();
    expect(all.sessions.find((s) => s.sessionId === 'session-two-0002')?.starred).toBe(true);
    expect(all.sessions.find((s) => s.sessionId === 'session-one-0001')?.starred).toBe(false);
    expect(await (await fetch(starUrl('session-two-0002'), { headers: owner.headers })).json()).toEqual({ starred: true });

    const removed = await star('session-two-0002', 'DELETE');
    expect(await removed.json()).toEqual({ starred: false });
    expect((await listed('starred=true')).sessions).toEqual([]);
  });

  it('answers 404 for an unknown session or another workspace’s campaign, 400 for a bad id or filter value', async () => {
    expect((await star('no-such-session-1')).status).toBe(404);
    expect((await star('session-one-0001', 'PUT', other.headers)).status).toBe(404);
    expect((await star('session-one-0001', 'DELETE', other.headers)).status).toBe(404);
    expect((await fetch(starUrl('session-one-0001'), { headers: other.headers })).status).toBe(404);
    expect((await star('bad id!')).status).toBe(400);
    expect((await star('session-one-0001', 'PUT', { cookie: owner.cookie, origin: 'https://evil.example' })).status).toBe(403);
    expect((await star('session-one-0001', 'PUT', { origin: server.config.publicUrl })).status).toBe(401);
    const badFilter = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?starred=yes`, { headers: owner.headers });
    expect(badFilter.status).toBe(400);
    // Nothing was starred by the refused calls.
    expect((await listed('starred=true')).sessions).toEqual([]);
  });

  it('limits how many stars one owner sets a minute', async () => {
    const limited = await userSession(server, 'Busy Starrer');
    const theirs = await createCampaign(server, limited.headers, 'Busy');
    await insertSession(server.db, { campaign_id: theirs.id, id: 'busy-session-01', started_at: NOW });
    const statuses: number[] = [];
    for (let i = 0; i <= STAR_WRITES_PER_USER; i++) statuses.push((await star('busy-session-01', i % 2 ? 'DELETE' : 'PUT', limited.headers, theirs.id)).status);
    expect(statuses.slice(0, STAR_WRITES_PER_USER).every((s) => s === 200)).toBe(true);
    expect(statuses[STAR_WRITES_PER_USER]).toBe(429);
  });

  it('goes with its session', async () => {
    await insertSession(server.db, { campaign_id: campaign.id, id: 'session-gone-004', started_at: NOW });
    expect((await star('session-gone-004')).status).toBe(200);
    const deleted = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/session-gone-004`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    expect(await server.db.selectFrom('session_stars').selectAll().where('session_id', '=', 'session-gone-004').execute()).toEqual([]);
  });
});

describe('retention and stars', () => {
  it('the sweep deletes an old unstarred session and keeps an old starred one', async () => {
    const kept = await createCampaign(server, owner.headers, 'Kept a week');
    await server.db.updateTable('campaigns').set({ retention_days: 7 }).where('id', '=', kept.id).execute();
    for (const id of ['old-unstarred-01', 'old-starred-0001']) {
      await insertSession(server.db, { campaign_id: kept.id, id, started_at: NOW - 30 * DAY });
      await appendChunk(server.db, {
        campaignId: kept.id,
        sessionId: id,
        seq: 0,
        events: [{ type: 4, data: { width: 1, height: 1 }, timestamp: NOW - 30 * DAY }],
      });
    }
    expect((await star('old-starred-0001', 'PUT', owner.headers, kept.id)).status).toBe(200);
    expect(await sweepExpiredRecordings(server.db, { now: NOW })).toBe(1);
    const sessions = await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', kept.id).execute();
    const chunks = await server.db.selectFrom('chunks').select('session_id').where('campaign_id', '=', kept.id).execute();
    expect(sessions.map((s) => s.id)).toEqual(['old-starred-0001']);
    expect(chunks.map((c) => c.session_id)).toEqual(['old-starred-0001']);
  });
});
