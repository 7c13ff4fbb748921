import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import { makeCampaign, sessionId } from './ingest-support.js';
import type { AlertList } from '../../common/api/webhooks.js';

// Alerts in the app (issue 38, part 5; docs/webhooks.md): a campaign's sessions that ended in the
// last day with errors, rage or dead clicks or custom events, and its limit nearly reached; not a
// session still going on, a bot, one that ended long ago, nor another workspace's campaign.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

const MINUTE = 60_000;

describe('alerts', () => {
  it("lists a campaign's alerts to whoever watches it, and nothing to a stranger", async () => {
    const owner = await userSession(server, 'Alert Owner');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, limit: 10, columns: { session_count: 9 } });
    const ended = Date.now() - 40 * MINUTE;
    const ids = { errors: sessionId(), clicks: sessionId(), event: sessionId(), calm: sessionId(), going: sessionId(), bot: sessionId(), old: sessionId() };
    const session = (id: string, lastActivityAt: number, facts: Record<string, unknown> = {}) =>
      insertSession(server.db, {
        campaign_id: campaignId,
        id,
        started_at: lastActivityAt - MINUTE,
        last_activity_at: lastActivityAt,
        has_human_input: 1,
        ...facts,
      });
    await session(ids.errors, ended, { error_count: 2 });
    await session(ids.clicks, ended - MINUTE, { rage_click_count: 1 });
    await session(ids.event, ended - 2 * MINUTE, { events: JSON.stringify({ signup: 1 }) });
    await session(ids.calm, ended);
    await session(ids.going, Date.now() - MINUTE, { error_count: 1 });
    await session(ids.bot, ended, { error_count: 1, is_bot: 1 });
    await session(ids.old, Date.now() - 25 * 60 * MINUTE, { error_count: 1 });

    const response = await fetch(`${server.url}/api/v1/alerts/${campaignId}`, { headers: owner.headers });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as AlertList;
    expect(data.map(({ event, session_id }) => [event, session_id])).toEqual([
      ['quota.near', null],
      ['session.errors', ids.errors],
      ['session.frustration', ids.clicks],
      ['session.event', ids.event],
    ]);

    const stranger = await userSession(server, 'Alert Stranger');
    expect((await fetch(`${server.url}/api/v1/alerts/${campaignId}`, { headers: stranger.headers })).status).toBe(404);
  });
});
