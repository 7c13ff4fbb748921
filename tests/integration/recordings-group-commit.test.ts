import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { findCampaign, type CampaignRow } from '../../server/campaigns/repository.js';
import { GroupCommitter } from '../../server/recordings/transaction-writer.js';
import type { PackedBatch } from '../../server/ingest/pack.js';
import { DUPLICATE, TransactionWriter, isBatchRefusal, type Written } from '../../server/recordings/transaction-writer.js';
import { LIMIT_REACHED } from '../../server/recordings/rules.js';
import { HttpError } from '../../server/http/errors.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch, storedCounts } from './ingest-support.js';
import { eventsOf, packed } from './recordings-support.js';

// Group commit (server/recordings/transaction-writer.ts): batches written together share one
// transaction, each in its own savepoint; a refused batch leaves nothing and takes nothing of the
// others away, and no batch is acknowledged before the group's COMMIT.

describe(`recordings: group commit on ${usingPostgres() ? 'PostgreSQL' : 'SQLite'}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  /** Writes the batch in the committer's next group, as SQLite's writer does; a retried batch answers stored: false. */
  const writeIn = (committer: GroupCommitter, campaign: CampaignRow, batch: PackedBatch): Promise<Partial<Written>> => {
    const writer = new TransactionWriter(usingPostgres() ? 'postgres' : 'sqlite', server.config.limits);
    // As the writers order a group: sessions not seen yet last, by id (a sort that keeps a session's batches in order).
    const order = `1/${batch.sessionId}`;
    return committer
      .run((trx) => writer.write(trx, campaign, batch, undefined, Date.now()), order)
      .then(
        ({ row: _row, ...outcome }) => outcome,
        (error: unknown) => (error === DUPLICATE ? { stored: false, admitted: false } : Promise.reject(error)),
      );
  };

  it('keeps the good batches of a group whole, refuses the bad one alone, and answers each only after the COMMIT', async () => {
    const campaignId = await makeCampaign(server, { limit: 1 });
    const campaign = (await findCampaign(server.db, campaignId))!;
    const committer = new GroupCommitter(server.db, isBatchRefusal);
    // A group runs new sessions last, in the order of their ids: the first one is admitted.
    const [a, refused] = [sessionId(), sessionId()].sort();
    const start = Date.now() - 5000;
    const store = (batch: PackedBatch) => writeIn(committer, campaign, batch);

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

    expect(await first).toEqual({ stored: true, admitted: true, marks: expect.any(Array) });
    const error = await bad.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 403, message: LIMIT_REACHED });
    expect(await second).toEqual({ stored: true, admitted: false, marks: expect.any(Array) });
    expect(await duplicate).toEqual({ stored: false, admitted: false });
    expect(await seenBeforeCommit).toEqual([]);

    // Nothing of the refused session; both of the good batches, counted once each.
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 2 });
    const row = await server.db.selectFrom('sessions').select(['batch_count', 'event_count']).where('id', '=', a).executeTakeFirstOrThrow();
    expect(row).toEqual({ batch_count: 2, event_count: 6 });
    const admittedCount = await server.db.selectFrom('campaigns').select('session_count').where('id', '=', campaignId).executeTakeFirstOrThrow();
    expect(admittedCount.session_count).toBe(1);
    expect(await eventsOf(server, campaignId, a)).toEqual([pageEvents(start), pageEvents(start + 3000)]);
  });

  it('puts a batch whose store fails for another reason through again alone, so the group is kept', async () => {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const committer = new GroupCommitter(server.db, isBatchRefusal);
    const id = sessionId();
    let attempts = 0;
    const good = writeIn(committer, campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents() }));
    // Fails the first time (as a deadlock between two nodes' groups would), succeeds alone.
    const flaky = committer.run(async (trx) => {
      attempts++;
      const count = await trx.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute();
      if (attempts === 1) throw new Error('deadlock detected');
      return count.length;
    });
    expect(await good).toEqual({ stored: true, admitted: true, marks: expect.any(Array) });
    expect(await flaky).toBe(1);
    expect(attempts).toBe(2);
  });

  /** A deadlock's error as the database reports it (PostgreSQL cancels one of two transactions; SQLite is busy). */
  const deadlock = () => Object.assign(new Error('deadlock detected'), { code: usingPostgres() ? '40P01' : 'SQLITE_BUSY' });

  it('tries a batch alone again after a deadlock, and hands on a deadlock that recurs', async () => {
    const committer = new GroupCommitter(server.db, isBatchRefusal);
    let tries = 0;
    const twice = committer.run(async () => {
      if (++tries <= 2) throw deadlock();
      return 'stored';
    });
    // Its refusal is caught at once: it may come while `twice` is still awaited.
    const always = committer
      .run(async () => {
        throw deadlock();
      })
      .catch((error: unknown) => error);
    expect(await twice).toBe('stored');
    expect(tries).toBe(3);
    expect(await always).toMatchObject({ code: deadlock().code });
  });

  it('answers 503 with Retry-After, not 500, when the database stays busy for a batch', async () => {
    const campaignId = await makeCampaign(server);
    const recordings = server.app.ctx.recordings;
    const write = recordings.write.bind(recordings);
    recordings.write = () => Promise.reject(deadlock());
    try {
      const busy = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await busy.json()).toEqual({ error: 'The server is busy; try again in a moment' });
    } finally {
      recordings.write = write;
    }
  });

  it('stores concurrent batches posted at once, each answered after its commit', async () => {
    const campaignId = await makeCampaign(server, { limit: 3 });
    const ids = Array.from({ length: 8 }, () => sessionId());
    const answers = await Promise.all(ids.map((id) => postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
    // Each acknowledged batch is readable the moment its answer arrives.
    const stored = ids.filter((_, i) => answers[i].status === 200);
    for (const id of stored) expect(await eventsOf(server, campaignId, id)).toHaveLength(1);
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 3, chunks: 3 });
  });
});
