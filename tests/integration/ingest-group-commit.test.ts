import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readChunks } from '../../server/storage/chunks.js';
import { findCampaign } from '../../server/campaigns/repository.js';
import { GroupCommitter } from '../../server/ingest/group-commit.js';
import { packBatch, type PackedBatch } from '../../server/ingest/pack-batch.js';
import { isBatchRefusal, LIMIT_REACHED, storeBatch, type StoreOutcome } from '../../server/ingest/store.js';
import { HttpError } from '../../server/http/errors.js';
import { sessionCounters } from '../../server/sessions/repository.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch, storedCounts } from './ingest-support.js';

// Group commit (server/ingest/group-commit.ts): batches stored together share one transaction,
// each in its own savepoint; a refused batch leaves nothing and takes nothing of the others away,
// and no batch is acknowledged before the group's COMMIT.

function packed(body: Record<string, unknown>): PackedBatch {
  const outcome = packBatch(Buffer.from(JSON.stringify(body)), Date.now());
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.batch;
}

describe('ingest: group commit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  const caps = () => server.config.limits;
  const eventsOf = async (campaignId: string, id: string) => {
    const chunks: unknown[][] = [];
    for await (const events of readChunks(server.db, campaignId, id)) chunks.push(events);
    return chunks;
  };

  it('keeps the good batches of a group whole, refuses the bad one alone, and answers each only after the COMMIT', async () => {
    const campaignId = await makeCampaign(server, { limit: 1 });
    const campaign = (await findCampaign(server.db, campaignId))!;
    const committer = new GroupCommitter(server.db, isBatchRefusal);
    // A group runs new sessions in the order of their ids: the first one is admitted.
    const [a, refused] = [sessionId(), sessionId()].sort();
    const start = Date.now() - 5000;
    const store = (batch: PackedBatch) => storeBatch(server.db, campaign, batch, '127.0.0.1', caps(), Date.now(), { committer });

    const answered: string[] = [];
    const note = <T>(name: string, promise: Promise<T>) =>
      promise.then(
        (value) => (answered.push(name), value),
        (error: unknown) => {
          answered.push(name);
          throw error;
        },
      );
    // All in one turn of the event loop: one group. The second session is past the campaign's
    // limit of 1: its row is inserted, then refused and rolled back to its savepoint.
    const first = note('a0', store(packed({ sessionId: a, seq: 0, info: info(), events: pageEvents(start) })));
    const bad = note('refused', store(packed({ sessionId: refused, seq: 0, info: info(), events: pageEvents(start) })));
    const second = note('a1', store(packed({ sessionId: a, seq: 1, events: pageEvents(start + 3000) })));
    const duplicate = note('a0 again', store(packed({ sessionId: a, seq: 0, info: info(), events: pageEvents(start) })));
    // The group's last piece of work (by its order): every batch has run, none may be answered yet.
    const seenBeforeCommit = committer.run(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return [...answered];
    }, '~');

    expect(await first).toMatchObject<StoreOutcome>({ stored: true, admitted: true });
    const error = await bad.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 403, message: LIMIT_REACHED });
    expect(await second).toMatchObject<StoreOutcome>({ stored: true, admitted: false });
    expect(await duplicate).toEqual<StoreOutcome>({ stored: false, admitted: false });
    expect(await seenBeforeCommit).toEqual([]);

    // Nothing of the refused session; both of the good batches, counted once each.
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 2 });
    const row = await server.db.selectFrom('sessions').select(['batch_count', 'event_count']).where('id', '=', a).executeTakeFirstOrThrow();
    expect(row).toEqual({ batch_count: 2, event_count: 6 });
    const admittedCount = await server.db.selectFrom('campaigns').select('session_count').where('id', '=', campaignId).executeTakeFirstOrThrow();
    expect(admittedCount.session_count).toBe(1);
    expect(await eventsOf(campaignId, a)).toEqual([pageEvents(start), pageEvents(start + 3000)]);
  });

  it('puts a batch whose store fails for another reason through again alone, so the group is kept', async () => {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const committer = new GroupCommitter(server.db, isBatchRefusal);
    const id = sessionId();
    let attempts = 0;
    const good = storeBatch(server.db, campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents() }), '127.0.0.1', caps(), Date.now(), { committer });
    // Fails the first time (as a deadlock between two nodes' groups would), succeeds alone.
    const flaky = committer.run(async (trx) => {
      attempts++;
      const count = await trx.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute();
      if (attempts === 1) throw new Error('deadlock detected');
      return count.length;
    });
    expect(await good).toMatchObject<StoreOutcome>({ stored: true, admitted: true });
    expect(await flaky).toBe(1);
    expect(attempts).toBe(2);
  });

  it('folds a batch’s facts onto the row as it is, even when another batch was stored after its limits were checked', async () => {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const id = sessionId();
    const start = Date.now() - 60_000;
    // Clicks far apart in time and space: each counts once, none is a rage click.
    const clicks = (at: number, n: number) => Array.from({ length: n }, (_, i) => ({ type: 3, data: { source: 2, type: 2, id: 1, x: 10 + 200 * i, y: 10 }, timestamp: at + 5000 * i }));
    const store = (batch: PackedBatch, known?: Awaited<ReturnType<typeof sessionCounters>>) =>
      storeBatch(server.db, campaign, batch, '127.0.0.1', caps(), Date.now(), { known });
    await store(packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(start) }));
    const readBeforeSeq1 = await sessionCounters(server.db, campaignId, id);
    expect(await store(packed({ sessionId: id, seq: 1, events: clicks(start + 10_000, 1) }), readBeforeSeq1)).toMatchObject<StoreOutcome>({ stored: true, admitted: false });
    // Read before seq 1 was stored: its facts are stale, so they must not be written back.
    const outcome = await store(packed({ sessionId: id, seq: 2, events: clicks(start + 20_000, 2) }), readBeforeSeq1);
    expect(outcome).toMatchObject<StoreOutcome>({ stored: true, admitted: false });
    const row = await server.db.selectFrom('sessions').select(['batch_count', 'click_count']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ batch_count: 3, click_count: 4 });
    // The row the outcome answers (what the next batch is judged against) is the row as stored, facts included.
    expect(outcome.state).toMatchObject((await sessionCounters(server.db, campaignId, id))!);
  });

  it('never folds a batch onto the facts of a session erased since its row was read, even at the same batch count', async () => {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const id = sessionId();
    const click = (at: number) => ({ type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 10 }, timestamp: at });
    const store = (batch: PackedBatch, known?: Awaited<ReturnType<typeof sessionCounters>>) => storeBatch(server.db, campaign, batch, '127.0.0.1', caps(), Date.now(), { known });
    await store(packed({ sessionId: id, seq: 0, info: info(), events: [...pageEvents(Date.now() - 60_000), click(Date.now() - 50_000)] }));
    const beforeErasure = (await sessionCounters(server.db, campaignId, id))!;
    expect(beforeErasure.click_count).toBe(2);
    await server.db.deleteFrom('chunks').where('session_id', '=', id).execute();
    await server.db.deleteFrom('sessions').where('id', '=', id).execute();
    // Started again: one click, the same batch count as the row read before the erasure.
    await store(packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(Date.now() - 20_000) }));
    await store(packed({ sessionId: id, seq: 1, events: [click(Date.now() - 5000)] }), beforeErasure);
    expect(await sessionCounters(server.db, campaignId, id)).toMatchObject({ batch_count: 2, click_count: 2 });
  });

  it('stores concurrent batches posted at once, each answered after its commit', async () => {
    const campaignId = await makeCampaign(server, { limit: 3 });
    const ids = Array.from({ length: 8 }, () => sessionId());
    const answers = await Promise.all(ids.map((id) => postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
    // Each acknowledged batch is readable the moment its answer arrives.
    const stored = ids.filter((_, i) => answers[i].status === 200);
    for (const id of stored) expect(await eventsOf(campaignId, id)).toHaveLength(1);
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 3, chunks: 3 });
  });
});
