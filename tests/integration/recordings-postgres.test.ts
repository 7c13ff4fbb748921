import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PREPARED, openDb } from '../../server/db/index.js';
import { CAPTURED_TAGS } from '../../common/captured.js';
import { usingPostgres, type TestServer } from '../helpers/server.js';
import type { CampaignRow } from '../../server/campaigns/repository.js';
import type { PackedBatch } from '../../server/ingest/pack.js';
import { findSession } from '../../server/sessions/repository.js';
import { TransactionWriter, sessionCounters } from '../../server/recordings/transaction-writer.js';
import { countValues, startValues, type CountedRow } from '../../server/recordings/postgres-batching.js';
import { countStatement, startStatement } from '../../server/recordings/statements.js';
import { firstBatchRow, foldedFacts } from '../../server/recordings/rules.js';
import type { SessionCaps, SessionState } from '../../server/recordings/batch.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch } from './ingest-support.js';
import { admittedCount, campaignRow, chunkSeqs, clickAt, eventsOf, packed, useRecordingsServer, writerFor } from './recordings-support.js';

// PostgreSQL's shared statements (server/recordings/postgres-batching.ts): the batches that
// arrive together are written by one statement, against the rows and the campaign as this node
// last saw them. The database checks both; whatever it does not confirm is written by nobody.

if (!usingPostgres()) {
  const message = 'PostgreSQL recordings tests skipped: they need PostgreSQL; set TEST_DATABASE_URL (CI does, with REQUIRE_POSTGRES=1)';
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
}

describe.skipIf(!usingPostgres())('recordings on PostgreSQL: the shared statements', () => {
  let server: TestServer;
  const log = useRecordingsServer((started) => (server = started));

  const caps = (more: Partial<SessionCaps> = {}) => ({ ...server.config.limits, ...more });

  /** Counts and stores batches by one statement; the answers by session id. */
  async function count(items: { campaign: CampaignRow; batch: PackedBatch; lastSeen: SessionState }[], limits = caps()) {
    const { rows } = await countStatement.run<CountedRow>(
      server.db,
      countValues(
        items.map((item) => ({ ...item, facts: foldedFacts(item.lastSeen, item.batch), now: Date.now() })),
        limits,
      ),
    );
    return new Map(rows.map((row) => [row.id, row]));
  }
  /** Writes a batch in a transaction of its own, as the writer does with what the statements leave. */
  const inTransaction = (campaign: CampaignRow, batch: PackedBatch, now = Date.now()) =>
    server.db.transaction().execute((trx) => new TransactionWriter('postgres', caps()).write(trx, campaign, batch, undefined, now));
  const start = (campaign: CampaignRow, batch: PackedBatch, now = Date.now()) =>
    startStatement
      .run<{ started: SessionState[] }>(server.db, startValues([{ campaign, batch, row: firstBatchRow(campaign, batch, batch.info!, now) }]))
      .then((r) => r.rows[0].started);

  /** A session started by its first batch, with the campaign and the row as stored. */
  async function started(): Promise<{ campaign: CampaignRow; id: string; row: SessionState; start: number }> {
    const campaign = await campaignRow(server);
    const id = sessionId();
    const begin = Date.now() - 60_000;
    expect((await inTransaction(campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(begin) }))).stored).toBe(true);
    return { campaign, id, row: (await sessionCounters(server.db, campaign.id, id))!, start: begin };
  }

  it('counts and stores a batch of a session as last seen, with its facts, in one statement', async () => {
    const { campaign, id, row, start: begin } = await started();
    const answer = (await count([{ campaign, batch: packed({ sessionId: id, seq: 1, events: clickAt(begin + 5000) }), lastSeen: row }])).get(id);
    expect(answer).toMatchObject({ applied: true, batch_count: 2 });
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: 2, event_count: 4, click_count: row.click_count + 1 });
    expect((await eventsOf(server, campaign.id, id))[1]).toEqual(clickAt(begin + 5000));
  });

  it('leaves the row and the chunk exactly as a transaction does for the same batch', async () => {
    const campaign = await campaignRow(server);
    const [viaTransaction, viaStatement] = [sessionId(), sessionId()];
    const now = Date.now();
    const begin = now - 60_000;
    // Errors, a page, clicks: every fact the rules keep moves.
    const next = (id: string) =>
      packed({
        sessionId: id,
        seq: 1,
        events: [
          { type: 4, data: { href: 'https://shop.example.com/checkout', width: 1280, height: 720 }, timestamp: begin + 3000 },
          { type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: begin + 3005 },
          ...clickAt(begin + 4000),
          ...clickAt(begin + 4100),
          { type: 5, data: { tag: CAPTURED_TAGS.error, payload: { message: 'Boom', source: '', stack: '' } }, timestamp: begin + 5000 },
        ],
      });
    for (const id of [viaTransaction, viaStatement])
      await inTransaction(campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(begin) }), now - 30_000);
    await inTransaction(campaign, next(viaTransaction), now);
    const seen = (await sessionCounters(server.db, campaign.id, viaStatement))!;
    const batch = next(viaStatement);
    const { rows } = await countStatement.run<CountedRow>(
      server.db,
      countValues([{ campaign, batch, lastSeen: seen, facts: foldedFacts(seen, batch), now }], caps()),
    );
    expect(rows.map((row) => row.applied)).toEqual([true]);

    const [one, other] = [(await findSession(server.db, campaign.id, viaTransaction))!, (await findSession(server.db, campaign.id, viaStatement))!];
    expect(one).toMatchObject({ batch_count: 2, page_count: 2, error_count: 1, pages: '/cart\n/checkout' });
    expect({ ...other, id: viaTransaction }).toEqual(one);
    const chunk = (id: string) =>
      server.db
        .selectFrom('chunks')
        .select(['seq', 'first_ts', 'last_ts', 'event_count', 'byte_size', 'data', 'sorted'])
        .where('session_id', '=', id)
        .where('seq', '=', 1)
        .executeTakeFirstOrThrow();
    expect(await chunk(viaStatement)).toEqual(await chunk(viaTransaction));
  });

  it('writes nothing against a stale row (another node stored a batch since), and answers the row as it is', async () => {
    const { campaign, id, row, start: begin } = await started();
    await inTransaction(campaign, packed({ sessionId: id, seq: 1, events: clickAt(begin + 3000) }));
    const batch = packed({ sessionId: id, seq: 2, events: clickAt(begin + 6000) });
    const stale = (await count([{ campaign, batch, lastSeen: row }])).get(id)!;
    expect(stale).toMatchObject({ applied: false, batch_count: 2 });
    expect(await chunkSeqs(server, campaign.id, id)).toEqual([0, 1]);
    // Against the row as it is now, the batch goes in; both clicks are counted once.
    expect((await count([{ campaign, batch, lastSeen: stale }])).get(id)).toMatchObject({ applied: true });
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: 3, click_count: row.click_count + 2 });
  });

  it('writes nothing for a batch stored already, a session erased and started again, or a changed campaign', async () => {
    const { campaign, id, row } = await started();
    // A retried batch: seq 0 is stored; the row is as seen, yet nothing is counted twice.
    expect((await count([{ campaign, batch: packed({ sessionId: id, seq: 0, events: pageEvents() }), lastSeen: row }])).get(id)).toMatchObject({
      applied: false,
    });
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: 1, event_count: 3 });

    // Erased and started again: same batch count, another start; the old facts must not come back.
    await server.db.deleteFrom('chunks').where('session_id', '=', id).execute();
    await server.db.deleteFrom('sessions').where('id', '=', id).execute();
    await inTransaction(campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(Date.now() - 10_000) }));
    const restarted = (await sessionCounters(server.db, campaign.id, id))!;
    expect(restarted.batch_count).toBe(row.batch_count);
    expect((await count([{ campaign, batch: packed({ sessionId: id, seq: 1, events: clickAt(Date.now() - 5000) }), lastSeen: row }])).get(id)).toMatchObject({
      applied: false,
    });
    expect(await chunkSeqs(server, campaign.id, id)).toEqual([0]);

    // The campaign's rules changed since the node read its copy: nothing, and no row to retry with.
    await server.db.updateTable('campaigns').set({ domains: 'elsewhere.example.com' }).where('id', '=', campaign.id).execute();
    expect((await count([{ campaign, batch: packed({ sessionId: id, seq: 1, events: clickAt(Date.now() - 5000) }), lastSeen: restarted }])).size).toBe(0);
    expect(await chunkSeqs(server, campaign.id, id)).toEqual([0]);
  });

  it('writes nothing past a cap, even for the row as it is (the statement checks the caps itself)', async () => {
    const { campaign, id, row, start: begin } = await started();
    const batch = packed({ sessionId: id, seq: 1, events: clickAt(begin + 3000) });
    for (const cap of [
      { sessionMaxBatches: row.batch_count },
      { sessionMaxBytes: row.byte_count + batch.jsonBytes - 1 },
      { sessionMaxEvents: row.event_count + batch.eventCount - 1 },
    ]) {
      expect((await count([{ campaign, batch, lastSeen: row }], caps(cap))).get(id), JSON.stringify(cap)).toMatchObject({
        applied: false,
        batch_count: row.batch_count,
      });
    }
    expect(await chunkSeqs(server, campaign.id, id)).toEqual([0]);
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({
      batch_count: row.batch_count,
      byte_count: row.byte_count,
      event_count: row.event_count,
    });
    expect((await count([{ campaign, batch, lastSeen: row }])).get(id)).toMatchObject({ applied: true });
  });

  it('writes the batches of several sessions by one statement, each on its own merits', async () => {
    const [a, b] = [await started(), await started()];
    const stale = { ...b.row, batch_count: b.row.batch_count + 5 };
    const answers = await count([
      { campaign: a.campaign, batch: packed({ sessionId: a.id, seq: 1, events: clickAt(a.start + 3000) }), lastSeen: a.row },
      { campaign: b.campaign, batch: packed({ sessionId: b.id, seq: 1, events: clickAt(b.start + 3000) }), lastSeen: stale },
    ]);
    expect([answers.get(a.id)?.applied, answers.get(b.id)?.applied]).toEqual([true, false]);
    expect(await chunkSeqs(server, a.campaign.id, a.id)).toEqual([0, 1]);
    expect(await chunkSeqs(server, b.campaign.id, b.id)).toEqual([0]);
  });

  it('starts a new session with its first batch: the row a transaction would store, its chunk, one place of the campaign', async () => {
    const campaign = await campaignRow(server, { ipMode: 'truncated' });
    const [viaTransaction, viaStatement] = [sessionId(), sessionId()];
    const now = Date.now();
    const first = (id: string) => packed({ sessionId: id, seq: 0, info: info(), events: [...pageEvents(now - 5000), ...clickAt(now - 2500)] }, '203.0.113.9');
    await server.db.transaction().execute((trx) => new TransactionWriter('postgres', caps()).write(trx, campaign, first(viaTransaction), undefined, now));
    const [row] = (
      await startStatement.run<{ started: SessionState[] }>(
        server.db,
        startValues([{ campaign, batch: first(viaStatement), row: firstBatchRow(campaign, first(viaStatement), info(), now) }]),
      )
    ).rows[0].started;
    expect(row).toMatchObject({ batch_count: 1, event_count: 4, click_count: 2 });
    const [one, other] = [(await findSession(server.db, campaign.id, viaTransaction))!, (await findSession(server.db, campaign.id, viaStatement))!];
    // The same row but for the id, and the search terms that hold it.
    const ownId = (row: typeof one, id: string) => ({ ...row, id: viaTransaction, search_terms: row.search_terms?.split(id.toLowerCase()) });
    expect(ownId(other, viaStatement)).toEqual(ownId(one, viaTransaction));
    expect(other.search_terms).toContain(viaStatement.toLowerCase());
    expect(other.remote_ip).toBe('203.0.113.0');
    expect(await chunkSeqs(server, campaign.id, viaStatement)).toEqual([0]);
    expect(await admittedCount(server, campaign.id)).toBe(2);
  });

  it('starts no session a campaign cannot take whole, one already started, or under changed rules', async () => {
    const campaign = await campaignRow(server, { limit: 3 });
    const batchOf = (id: string) => packed({ sessionId: id, seq: 0, info: info(), events: pageEvents() });
    const taken = sessionId();
    expect(await start(campaign, batchOf(taken))).toHaveLength(1);
    // Three together for the two places left: none is started here.
    const items = [sessionId(), sessionId(), sessionId()].map((id) => ({
      campaign,
      batch: batchOf(id),
      row: firstBatchRow(campaign, batchOf(id), info(), Date.now()),
    }));
    expect((await startStatement.run<{ started: SessionState[] }>(server.db, startValues(items))).rows[0].started).toEqual([]);
    expect(await admittedCount(server, campaign.id)).toBe(1);
    // Started already (a retried first batch): not started twice, not counted twice.
    expect(await start(campaign, batchOf(taken))).toEqual([]);
    expect(await admittedCount(server, campaign.id)).toBe(1);
    // The campaign's address handling changed since this copy was read.
    await server.db.updateTable('campaigns').set({ ip_mode: 'none' }).where('id', '=', campaign.id).execute();
    const stale = sessionId();
    expect(await start(campaign, batchOf(stale))).toEqual([]);
    expect(await findSession(server.db, campaign.id, stale)).toBeUndefined();
    expect(await admittedCount(server, campaign.id)).toBe(1);
  });

  it('counts one place for a session two statements start at once: the second fails whole or starts nothing', async () => {
    const campaign = await campaignRow(server);
    const batch = packed({ sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
    const outcomes = await Promise.allSettled([start(campaign, batch), start(campaign, batch)]);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: '23505' });
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value.length === 1)).toHaveLength(1);
    expect(await admittedCount(server, campaign.id)).toBe(1);
    expect(await chunkSeqs(server, campaign.id, batch.sessionId)).toEqual([0]);
  });

  it("starts sessions by a transaction and by the statement at once without a deadlock: both take the campaign's row before its count of sessions", async () => {
    const { campaign } = await started();
    const first = (id: string) => packed({ sessionId: id, seq: 0, info: info(), events: pageEvents() });
    const [viaTransaction, viaStatement] = [sessionId(), sessionId()];
    let statementPid = 0;
    let transaction: ReturnType<typeof inTransaction> | undefined;
    /** Backends waiting for a lock the statement's backend holds. */
    const waitingForStatement = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${statementPid}::int = any(pg_blocking_pids(pid))`.execute(server.db))
        .rows[0].n;
    // The statement admits first (the campaign's row), then its trigger counts the sessions
    // (session_counts); here a transaction starts a session between the two.
    const statement = server.db.transaction().execute(async (trx) => {
      statementPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0].pid;
      await sql`update campaigns set session_count = session_count where id = ${campaign.id}`.execute(trx);
      transaction = inTransaction(campaign, first(viaTransaction));
      await expect.poll(waitingForStatement).toBe(1);
      return startStatement.run<{ started: SessionState[] }>(
        trx,
        startValues([{ campaign, batch: first(viaStatement), row: firstBatchRow(campaign, first(viaStatement), info(), Date.now()) }]),
      );
    });
    // Before, the transaction counted its session and then waited for the campaign's row, which
    // the statement held while its trigger waited for the count: PostgreSQL killed one (40P01).
    const [startedRows] = await Promise.allSettled([statement.then((result) => result.rows[0].started)]);
    const [written] = await Promise.allSettled([transaction]);
    expect(written).toMatchObject({ status: 'fulfilled', value: { stored: true, admitted: true } });
    expect(startedRows).toMatchObject({ status: 'fulfilled', value: [{ id: viaStatement }] });
    expect(await admittedCount(server, campaign.id)).toBe(3);
  });

  it('prepares a statement marked PREPARED once on a connection, and no other', async () => {
    const prepared = await server.db.connection().execute(async (db) => {
      await sql`${sql.raw(PREPARED)}select ${1}::int as one`.execute(db);
      await sql`${sql.raw(PREPARED)}select ${2}::int as one`.execute(db);
      await sql`select ${3}::int as unmarked`.execute(db);
      return (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map((row) => row.statement);
    });
    expect(prepared.filter((text) => text.includes('as one'))).toHaveLength(1);
    expect(prepared.filter((text) => text.includes('unmarked'))).toHaveLength(0);
  });

  it('plans prepared statements again as the tables grow from a new install (DISCARD PLANS at the 64th run on a connection)', async () => {
    const schema = `replan_${sessionId().slice(0, 12)}`;
    await sql`create schema ${sql.id(schema)}`.execute(server.db);
    const db = openDb({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: '', pgOptions: { max: 1, options: `-c search_path=${schema}` } });
    try {
      await sql`create table probe (k text primary key, v text not null)`.execute(db);
      await sql`insert into probe values ('a', 'x')`.execute(db);
      // As ingest's statements are: rows looked up by keys unnested from an array parameter.
      const text = `${PREPARED}select p.v from probe p join unnest($1::text[]) as u(k) on p.k = u.k`;
      const run = () => db.executeQuery(CompiledQuery.raw(text, [['a', 'b']]));
      const plan = async () => {
        const [{ name }] = (await sql<{ name: string }>`select name from pg_prepared_statements where statement = ${text}`.execute(db)).rows;
        const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) execute ${sql.id(name)}(${sql.lit('{a,b}')})`.execute(db);
        return JSON.stringify(rows[0]['QUERY PLAN']);
      };
      for (let i = 0; i < 10; i++) await run();
      // The plan kept from when the table was one row reads it all, however large it grows.
      await sql`insert into probe select 'k' || i, 'v' from generate_series(1, 50000) as i`.execute(db);
      expect(await plan()).toContain('Seq Scan');
      for (let i = 10; i < 70; i++) await run();
      expect(await plan()).not.toContain('Seq Scan');
      expect(await plan()).toContain('Index');
    } finally {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(server.db);
    }
  });

  it("over HTTP: follows another node's writes to the session and to the campaign", async () => {
    const campaignId = await makeCampaign(server);
    const id = sessionId();
    const begin = Date.now() - 60_000;
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents(begin) })).status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: clickAt(begin + 3000) })).status).toBe(200);
    // "Another node" stores seq 2: this node's last seen row for the session is now stale.
    const otherNode = writerFor(server, log);
    const campaign = await server.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).executeTakeFirstOrThrow();
    await otherNode.write(packed({ sessionId: id, seq: 2, events: clickAt(begin + 6000) }), {
      campaign,
      lastSeen: await otherNode.lastSeen(campaignId, id),
    });
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 3, events: clickAt(begin + 9000) })).status).toBe(200);
    expect(await findSession(server.db, campaignId, id)).toMatchObject({ batch_count: 4, click_count: 4 });
    expect(await chunkSeqs(server, campaignId, id)).toEqual([0, 1, 2, 3]);

    // "Another node" takes the shop off the campaign: this node's cached copy still lists it, but
    // the next batch from the shop is refused, and one from the new domain is taken.
    await server.db.updateTable('campaigns').set({ domains: 'new.example.com' }).where('id', '=', campaignId).execute();
    const refused = await postBatch(server, campaignId, { sessionId: id, seq: 4, events: clickAt(begin + 12_000) });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const taken = await postBatch(server, campaignId, { sessionId: id, seq: 4, events: clickAt(begin + 12_000) }, { origin: 'https://new.example.com' });
    expect(taken.status).toBe(200);
    expect(await chunkSeqs(server, campaignId, id)).toEqual([0, 1, 2, 3, 4]);
  });

  it('over HTTP: answers 503 with Retry-After, storing nothing, when the campaign changes again while the batch is judged afresh', async () => {
    const campaignId = await makeCampaign(server);
    const id = sessionId();
    const begin = Date.now() - 60_000;
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents(begin) })).status).toBe(200);
    // "Another node" edits a judged column of the campaign just before each of this request's
    // writes: the first finds the campaign changed, so does the one after the fresh judgement.
    const recordings = server.app.ctx.recordings;
    const write = recordings.write.bind(recordings);
    let edits = 0;
    recordings.write = async (...args) => {
      edits++;
      await server.db
        .updateTable('campaigns')
        .set({ capture_console: sql<number>`1 - capture_console` })
        .where('id', '=', campaignId)
        .execute();
      return write(...args);
    };
    try {
      const busy = await postBatch(server, campaignId, { sessionId: id, seq: 1, events: clickAt(begin + 3000) });
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(((await busy.json()) as { error: string }).error).toBe('The campaign is being changed: try again in a moment');
      expect(edits).toBe(2);
    } finally {
      recordings.write = write;
    }
    expect(await chunkSeqs(server, campaignId, id)).toEqual([0]);
    // Sent again once the campaign holds still, the batch is stored.
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: clickAt(begin + 3000) })).status).toBe(200);
    expect(await chunkSeqs(server, campaignId, id)).toEqual([0, 1]);
  });
});
