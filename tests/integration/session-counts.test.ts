import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { insertSession } from '../../server/recordings/seed.js';
import { countSessions, deleteSession } from '../../server/sessions/repository.js';
import { markEndedSessionsWithoutInput } from '../../server/recordings/bot-sweep.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import { deleteCampaign } from '../../server/campaigns/repository.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId } from './ingest-support.js';

// The sessions list's whole-campaign counts come from session_counts, kept by triggers on
// sessions (migration 0026). After every kind of write they must equal a count of the rows.

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

async function counted(campaignId: string) {
  const rows = await server.db.selectFrom('sessions').select('is_bot').where('campaign_id', '=', campaignId).execute();
  const bot = rows.filter((row) => row.is_bot === 1).length;
  return { total: rows.length, human: rows.length - bot, bot };
}

async function expectCounts(campaignId: string, expected: { total: number; bot: number }) {
  const counts = await countSessions(server.db, campaignId);
  expect(counts).toEqual({ total: expected.total, human: expected.total - expected.bot, bot: expected.bot });
  expect(counts).toEqual(await counted(campaignId));
}

describe('session counts', () => {
  it('follow ingest, verdicts, deletion and retention', async () => {
    const campaignId = await makeCampaign(server);
    await expectCounts(campaignId, { total: 0, bot: 0 });

    // Two sessions through the real ingest route, one of them a crawler.
    expect((await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() })).status).toBe(200);
    const crawler = info({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    expect((await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: crawler, events: pageEvents() })).status).toBe(200);
    await expectCounts(campaignId, { total: 2, bot: 1 });

    // One that ended without human input: the bot sweep's verdict moves it to the bots.
    const now = Date.now();
    await insertSession(server.db, {
      campaign_id: campaignId,
      id: 'idle-session-0001',
      started_at: now - 2 * 60 * 60 * 1000,
      last_activity_at: now - 60 * 60 * 1000,
    });
    await expectCounts(campaignId, { total: 3, bot: 1 });
    await markEndedSessionsWithoutInput(server.db, campaignId, now);
    await expectCounts(campaignId, { total: 3, bot: 2 });

    // A deleted session, then retention.
    expect(await deleteSession(server.db, campaignId, 'idle-session-0001')).toBe(true);
    await expectCounts(campaignId, { total: 2, bot: 1 });
    await insertSession(server.db, { campaign_id: campaignId, id: 'very-old-session', started_at: now - 400 * DAY, is_bot: 1 });
    await server.db.updateTable('campaigns').set({ retention_days: 30 }).where('id', '=', campaignId).execute();
    await expectCounts(campaignId, { total: 3, bot: 2 });
    await sweepExpiredRecordings(server.db, { now });
    await expectCounts(campaignId, { total: 2, bot: 1 });
  });

  it('go with a deleted campaign and start again from nothing', async () => {
    const campaignId = await makeCampaign(server);
    await insertSession(server.db, { campaign_id: campaignId, id: 'gone-session-001', started_at: Date.now() });
    await expectCounts(campaignId, { total: 1, bot: 0 });
    const campaign = await server.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).executeTakeFirstOrThrow();
    await deleteCampaign(server.db, server.app.ctx.keptCampaigns, campaign);
    expect(await server.db.selectFrom('session_counts').select('sessions').where('campaign_id', '=', campaignId).execute()).toEqual([]);
  });
});
