import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRow } from '../../server/sessions/rows.js';
import { SESSION_DURATION_MS, sessionDurationMs } from '../../server/sessions/duration.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { info, makeCampaign, postBatch, serverWithCampaign, sessionId } from './ingest-support.js';

// A session's duration is one rule (server/sessions/duration.ts): at least its active time. The
// list shows it, filters by it and Insights counts it; its SQL form agrees with its JS form.

let { server, owner, campaignId } = {} as Awaited<ReturnType<typeof serverWithCampaign>>;
beforeAll(async () => {
  ({ server, owner, campaignId } = await serverWithCampaign('Duration Owner'));
});
afterAll(async () => server?.close());

const T0 = Date.now() - 86_400_000;

describe("a session's duration", () => {
  it('is the same in SQL as in JS, on this database', async () => {
    const ms = fc.integer({ min: -5_000, max: 10 * 86_400_000 });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ duration_ms: ms, active_ms: fc.nat(10 * 86_400_000) }), { minLength: 1, maxLength: 20 }), async (facts) => {
        const campaign = `${campaignId}`;
        const prefix = `dur-${round++}-`;
        const rows = facts.map((f, i) => sessionRow({ campaign_id: campaign, id: `${prefix}${i}`, started_at: T0, last_activity_at: T0, ...f }));
        await server.db.insertInto('sessions').values(rows).execute();
        const read = await server.db
          .selectFrom('sessions')
          .select(['id', 'duration_ms', 'active_ms', SESSION_DURATION_MS.as('shown')])
          .where('campaign_id', '=', campaign)
          .where('id', 'like', `${prefix}%`)
          .execute();
        for (const row of read)
          expect(Number(row.shown), row.id).toBe(sessionDurationMs({ duration_ms: Number(row.duration_ms), active_ms: Number(row.active_ms) }));
        expect(read).toHaveLength(facts.length);
      }),
      { numRuns: 40 },
    );
  });

  it('filters the list by the duration it shows (at least its active time)', async () => {
    const campaign = await makeCampaign(server, { ownerId: owner.userId });
    // One batch: the server's clock saw no time pass, the events' own clock saw 8 s of input.
    const rows = [
      { id: 'one-batch-session', duration_ms: 0, active_ms: 8_000 },
      { id: 'short-session', duration_ms: 3_000, active_ms: 1_000 },
      { id: 'long-session', duration_ms: 60_000, active_ms: 9_000 },
    ].map((r) => sessionRow({ campaign_id: campaign, started_at: T0, last_activity_at: T0, ...r }));
    await server.db.insertInto('sessions').values(rows).execute();
    const listed = async (query: string) => {
      const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign}/?${query}`, { headers: owner.headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as SessionsResponse).sessions.map((s) => [s.sessionId, s.durationMs]);
    };
    expect(await listed('minDuration=5000')).toEqual(
      expect.arrayContaining([
        ['one-batch-session', 8_000],
        ['long-session', 60_000],
      ]),
    );
    expect(await listed('minDuration=5000')).toHaveLength(2);
    expect(await listed('maxDuration=5000')).toEqual([['short-session', 3_000]]);
  });

  it('orders the list by the duration it shows: ingest writes it, at least the active time', async () => {
    const campaign = await makeCampaign(server, { ownerId: owner.userId });
    const t = Date.now() - 60_000;
    const clicks = (from: number, seconds: number[]) =>
      seconds.map((s) => ({ type: 3, data: { source: 2, type: 2, id: 1, x: 5, y: 5 }, timestamp: from + s * 1000 }));
    const post = (id: string, seq: number, events: unknown[]) => postBatch(server, campaign, { sessionId: id, seq, info: seq === 0 ? info() : null, events });
    // Stashed batches sent at once: 9 s of input by the events' clock, about 1 s by the server's.
    const stashed = sessionId();
    expect((await post(stashed, 0, clicks(t, [0, 1]))).status).toBe(200);
    expect((await post(stashed, 1, clicks(t, [2, 3, 4, 5, 6, 7, 8, 9]))).status).toBe(200);
    // 4 s by either clock.
    const steady = sessionId();
    expect((await post(steady, 0, clicks(t, [0, 4]))).status).toBe(200);
    expect((await post(steady, 1, clicks(t, [4.1]))).status).toBe(200);
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign}/?sort=longest`, { headers: owner.headers });
    expect(response.status).toBe(200);
    const listed = ((await response.json()) as SessionsResponse).sessions.map((s) => s.sessionId);
    expect(listed).toEqual([stashed, steady]);
  });
});
