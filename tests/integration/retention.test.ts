import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import { oneNodeAtATime, sweepRecordings } from '../../server/cluster/jobs.js';
import { makeCampaign } from './ingest-support.js';

// Recordings past their campaign's retention go, sessions with their chunks; the rest stay.

const DAY = 24 * 60 * 60 * 1000;
const NOW = 1_800_000_000_000;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

async function campaignKeeping(days: number): Promise<string> {
  const id = await makeCampaign(server);
  await server.db.updateTable('campaigns').set({ retention_days: days }).where('id', '=', id).execute();
  return id;
}

async function recording(campaignId: string, id: string, startedAt: number): Promise<void> {
  await insertSession(server.db, { campaign_id: campaignId, id, started_at: startedAt });
  await appendChunk(server.db, { campaignId, sessionId: id, seq: 0, events: [{ type: 4, data: { width: 1, height: 1 }, timestamp: startedAt }] });
  await appendChunk(server.db, { campaignId, sessionId: id, seq: 1, events: [{ type: 3, data: {}, timestamp: startedAt + 1 }] });
}

async function stored(campaignId: string) {
  const sessions = await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).orderBy('id').execute();
  const chunks = await server.db.selectFrom('chunks').select('session_id').where('campaign_id', '=', campaignId).execute();
  return { sessions: sessions.map((s) => s.id), chunkSessions: [...new Set(chunks.map((c) => c.session_id))].sort(), chunks: chunks.length };
}

describe('the retention sweeper', () => {
  it('deletes a recording that started just before the cutoff and keeps one at or just after it', async () => {
    const campaignId = await campaignKeeping(7);
    const cutoff = NOW - 7 * DAY;
    await recording(campaignId, 'just-older-0001', cutoff - 1);
    await recording(campaignId, 'at-cutoff-00001', cutoff);
    await recording(campaignId, 'just-newer-0001', cutoff + 1);
    await sweepExpiredRecordings(server.db, { now: NOW });
    expect(await stored(campaignId)).toEqual({
      sessions: ['at-cutoff-00001', 'just-newer-0001'],
      chunkSessions: ['at-cutoff-00001', 'just-newer-0001'],
      chunks: 4,
    });
  });

  it('keeps every recording of a campaign that keeps them forever', async () => {
    const campaignId = await campaignKeeping(0);
    await recording(campaignId, 'ancient-000001', 1);
    await sweepExpiredRecordings(server.db, { now: NOW });
    expect((await stored(campaignId)).sessions).toEqual(['ancient-000001']);
  });

  it("applies each campaign's own retention", async () => {
    const week = await campaignKeeping(7);
    const year = await campaignKeeping(365);
    for (const campaignId of [week, year]) await recording(campaignId, 'month-old-0001', NOW - 30 * DAY);
    await sweepExpiredRecordings(server.db, { now: NOW });
    expect((await stored(week)).sessions).toEqual([]);
    expect((await stored(year)).sessions).toEqual(['month-old-0001']);
  });

  it('deletes in bounded batches until none are left, and answers how many went', async () => {
    const campaignId = await campaignKeeping(30);
    for (let i = 0; i < 5; i++) await recording(campaignId, `old-session-000${i}`, NOW - 31 * DAY - i);
    await recording(campaignId, 'new-session-0001', NOW - DAY);
    const batches: number[] = [];
    expect(await sweepExpiredRecordings(server.db, { now: NOW, batchSize: 2, onBatch: (n) => batches.push(n) })).toBe(5);
    expect(batches).toEqual([2, 2, 1]);
    expect(await stored(campaignId)).toEqual({ sessions: ['new-session-0001'], chunkSessions: ['new-session-0001'], chunks: 2 });
  });

  it('the periodic job sweeps too', async () => {
    const campaignId = await campaignKeeping(7);
    await recording(campaignId, 'old-periodic-01', NOW - 8 * DAY);
    expect(await sweepRecordings(server.db, NOW)).toBe(true);
    expect((await stored(campaignId)).sessions).toEqual([]);
  });

  it.skipIf(!usingPostgres())('on PostgreSQL, does not sweep while another node is sweeping', async () => {
    const campaignId = await campaignKeeping(7);
    await recording(campaignId, 'old-locked-0001', NOW - 8 * DAY);
    let release = () => {};
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const otherNode = oneNodeAtATime(server.db, 'retention', () => {
      started();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await running;
    expect(await sweepRecordings(server.db, NOW)).toBe(false);
    expect((await stored(campaignId)).sessions).toEqual(['old-locked-0001']);
    release();
    await otherNode;
    expect(await sweepRecordings(server.db, NOW)).toBe(true);
    expect((await stored(campaignId)).sessions).toEqual([]);
  });
});
