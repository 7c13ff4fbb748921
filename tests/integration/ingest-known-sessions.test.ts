import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED } from '../../server/db/index.js';
import { CAPTURED_TAGS } from '../../common/captured.js';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { readChunks } from '../../server/storage/chunks.js';
import { findCampaign, type CampaignRow } from '../../server/campaigns/repository.js';
import { KnownSessionWriter } from '../../server/ingest/known-sessions.js';
import { NewSessionWriter } from '../../server/ingest/new-sessions.js';
import { packBatch, type PackedBatch } from '../../server/ingest/pack-batch.js';
import { firstBatchRow, storeBatch } from '../../server/ingest/store.js';
import { findSession, sessionCounters, type SessionState } from '../../server/sessions/repository.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch } from './ingest-support.js';

// Ingest's short way on PostgreSQL (server/ingest/known-sessions.ts): a batch of a session this
// node saw is counted and stored by one shared statement against the row as the node last saw
// it. The database checks that guess; whatever it does not confirm is written by nobody.

function packed(body: Record<string, unknown>): PackedBatch {
  const outcome = packBatch(Buffer.from(JSON.stringify(body)), Date.now());
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.batch;
}

/** A click a second after `start`: a moment the session's facts count. */
const clickAt = (start: number) => [{ type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 10 }, timestamp: start + 1000 }];

if (!usingPostgres()) {
  const message = 'short-way ingest tests skipped: they need PostgreSQL; set TEST_DATABASE_URL (CI does)';
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
}

describe.skipIf(!usingPostgres())('ingest on PostgreSQL: the short way for sessions a node has seen', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  // A statement that fails writes nothing too: "nothing written" must come from its checks, not an error.
  const failures: unknown[] = [];
  const failed = { warn: (details: { err: unknown }) => failures.push(details.err) };
  afterEach(() => {
    expect(failures.splice(0)).toEqual([]);
  });

  const caps = () => server.config.limits;
  const chunkSeqs = async (campaignId: string, id: string) =>
    (await server.db.selectFrom('chunks').select('seq').where('campaign_id', '=', campaignId).where('session_id', '=', id).orderBy('seq').execute()).map((row) => row.seq);

  /** A session started by its first batch, with the campaign and the row as stored. */
  async function started(): Promise<{ campaign: CampaignRow; id: string; row: SessionState; start: number }> {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const id = sessionId();
    const start = Date.now() - 60_000;
    const outcome = await storeBatch(server.db, campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(start) }), '127.0.0.1', caps());
    expect(outcome.stored).toBe(true);
    return { campaign, id, row: (await sessionCounters(server.db, campaignId, id))!, start };
  }

  it('counts and stores a batch of a session as last seen, with its facts, in one statement', async () => {
    const { campaign, id, row, start } = await started();
    const writer = new KnownSessionWriter(server.db, caps(), failed);
    const write = await writer.write(campaign, packed({ sessionId: id, seq: 1, events: clickAt(start + 5000) }), row, Date.now());
    expect(write.applied).toBe(true);
    const session = (await findSession(server.db, campaign.id, id))!;
    expect(session).toMatchObject({ batch_count: 2, event_count: 4, click_count: row.click_count + 1 });
    expect(write.applied && write.row.batch_count).toBe(2);
    expect(await chunkSeqs(campaign.id, id)).toEqual([0, 1]);
    const events: unknown[][] = [];
    for await (const chunk of readChunks(server.db, campaign.id, id)) events.push(chunk);
    expect(events[1]).toEqual(clickAt(start + 5000));
  });

  it('leaves the row and the chunk exactly as the long way does for the same batch', async () => {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const [viaLong, viaShort] = [sessionId(), sessionId()];
    const now = Date.now();
    const start = now - 60_000;
    // Errors, a page, clicks: every fact the rules keep moves.
    const next = (id: string) =>
      packed({
        sessionId: id,
        seq: 1,
        events: [
          { type: 4, data: { href: 'https://shop.example.com/checkout', width: 1280, height: 720 }, timestamp: start + 3000 },
          { type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: start + 3005 },
          ...clickAt(start + 4000),
          ...clickAt(start + 4100),
          { type: 5, data: { tag: CAPTURED_TAGS.error, payload: { message: 'Boom', source: '', stack: '' } }, timestamp: start + 5000 },
        ],
      });
    for (const id of [viaLong, viaShort]) await storeBatch(server.db, campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(start) }), '127.0.0.1', caps(), now - 30_000);
    const readShort = (await sessionCounters(server.db, campaignId, viaShort))!;
    await storeBatch(server.db, campaign, next(viaLong), '127.0.0.1', caps(), now, { known: (await sessionCounters(server.db, campaignId, viaLong))! });
    expect((await new KnownSessionWriter(server.db, caps(), failed).write(campaign, next(viaShort), readShort, now)).applied).toBe(true);

    const [long, short] = [(await findSession(server.db, campaignId, viaLong))!, (await findSession(server.db, campaignId, viaShort))!];
    expect(long).toMatchObject({ batch_count: 2, page_count: 2, error_count: 1, pages: '/cart\n/checkout' });
    expect({ ...short, id: viaLong }).toEqual(long);
    const chunk = (id: string) =>
      server.db.selectFrom('chunks').select(['seq', 'first_ts', 'last_ts', 'event_count', 'byte_size', 'data', 'sorted']).where('session_id', '=', id).where('seq', '=', 1).executeTakeFirstOrThrow();
    expect(await chunk(viaShort)).toEqual(await chunk(viaLong));
  });

  it('writes nothing against a stale row (another node stored a batch since), and answers the row as it is', async () => {
    const { campaign, id, row, start } = await started();
    // "Another node": the long way stores seq 1 while this node still holds the row as of seq 0.
    await storeBatch(server.db, campaign, packed({ sessionId: id, seq: 1, events: clickAt(start + 3000) }), '127.0.0.1', caps());
    const writer = new KnownSessionWriter(server.db, caps(), failed);
    const batch = packed({ sessionId: id, seq: 2, events: clickAt(start + 6000) });
    const stale = await writer.write(campaign, batch, row, Date.now());
    expect(stale).toMatchObject({ applied: false, current: { batch_count: 2 } });
    expect(await chunkSeqs(campaign.id, id)).toEqual([0, 1]);
    // Against the row as it is now, the batch goes in; both clicks are counted once.
    const retried = await writer.write(campaign, batch, stale.applied ? row : stale.current!, Date.now());
    expect(retried.applied).toBe(true);
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: 3, click_count: row.click_count + 2 });
  });

  it('writes nothing for a batch stored already, a session erased and started again, or a changed campaign', async () => {
    const writer = new KnownSessionWriter(server.db, caps(), failed);
    const { campaign, id, row } = await started();

    // A retried batch: seq 0 is stored; the row is as seen, yet nothing is counted twice.
    const again = await writer.write(campaign, packed({ sessionId: id, seq: 0, events: pageEvents() }), row, Date.now());
    expect(again.applied).toBe(false);
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: 1, event_count: 3 });

    // Erased and started again: same batch count, another start; the old facts must not come back.
    await server.db.deleteFrom('chunks').where('session_id', '=', id).execute();
    await server.db.deleteFrom('sessions').where('id', '=', id).execute();
    await storeBatch(server.db, campaign, packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(Date.now() - 10_000) }), '127.0.0.1', caps());
    const restarted = (await sessionCounters(server.db, campaign.id, id))!;
    expect(restarted.batch_count).toBe(row.batch_count);
    const erased = await writer.write(campaign, packed({ sessionId: id, seq: 1, events: clickAt(Date.now() - 5000) }), row, Date.now());
    expect(erased.applied).toBe(false);
    expect(await chunkSeqs(campaign.id, id)).toEqual([0]);

    // The campaign's rules changed since the node kept its copy: nothing, and no row to retry with.
    await server.db.updateTable('campaigns').set({ domains: 'elsewhere.example.com' }).where('id', '=', campaign.id).execute();
    const changed = await writer.write(campaign, packed({ sessionId: id, seq: 1, events: clickAt(Date.now() - 5000) }), restarted, Date.now());
    expect(changed).toEqual({ applied: false, current: undefined });
    expect(await chunkSeqs(campaign.id, id)).toEqual([0]);
  });

  it('writes nothing past a cap, even for the row as it is (the statement checks the caps itself)', async () => {
    const { campaign, id, row, start } = await started();
    const batch = packed({ sessionId: id, seq: 1, events: clickAt(start + 3000) });
    // Each cap set where this batch would pass it; the node's row is the row, so only the cap refuses.
    for (const cap of [{ sessionMaxBatches: row.batch_count }, { sessionMaxBytes: row.byte_count + batch.jsonBytes - 1 }, { sessionMaxEvents: row.event_count + batch.eventCount - 1 }]) {
      const write = await new KnownSessionWriter(server.db, { ...caps(), ...cap }, failed).write(campaign, batch, row, Date.now());
      expect(write, JSON.stringify(cap)).toMatchObject({ applied: false, current: { batch_count: row.batch_count } });
    }
    expect(await chunkSeqs(campaign.id, id)).toEqual([0]);
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: row.batch_count, byte_count: row.byte_count, event_count: row.event_count });
    // Under the caps, the same batch goes in.
    expect((await new KnownSessionWriter(server.db, caps(), failed).write(campaign, batch, row, Date.now())).applied).toBe(true);
  });

  it('writes the batches of several sessions together, each on its own merits, and one batch a session a statement', async () => {
    const [a, b] = [await started(), await started()];
    const writer = new KnownSessionWriter(server.db, caps(), failed);
    const stale = { ...b.row, batch_count: b.row.batch_count + 5 };
    const [first, second, third] = await Promise.all([
      writer.write(a.campaign, packed({ sessionId: a.id, seq: 1, events: clickAt(a.start + 3000) }), a.row, Date.now()),
      // Queued with the one above but judged after it: it carries the row as of seq 0, now stale.
      writer.write(a.campaign, packed({ sessionId: a.id, seq: 2, events: clickAt(a.start + 6000) }), a.row, Date.now()),
      writer.write(b.campaign, packed({ sessionId: b.id, seq: 1, events: clickAt(b.start + 3000) }), stale, Date.now()),
    ]);
    expect([first.applied, second.applied, third.applied]).toEqual([true, false, false]);
    expect(await chunkSeqs(a.campaign.id, a.id)).toEqual([0, 1]);
    expect(await chunkSeqs(b.campaign.id, b.id)).toEqual([0]);
  });

  it('starts a new session with its first batch: the row the long way would store, its chunk, one place of the campaign', async () => {
    const campaignId = await makeCampaign(server, { ipMode: 'truncated' });
    const campaign = (await findCampaign(server.db, campaignId))!;
    const [viaLong, viaShort] = [sessionId(), sessionId()];
    const now = Date.now();
    const first = (id: string) => packed({ sessionId: id, seq: 0, info: info(), events: [...pageEvents(now - 5000), ...clickAt(now - 2500)] });
    await storeBatch(server.db, campaign, first(viaLong), '203.0.113.9', caps(), now);
    const batch = first(viaShort);
    const started = await new NewSessionWriter(server.db, failed).start(campaign, batch, firstBatchRow(campaign, batch, batch.info!, '203.0.113.9', now));
    expect(started).toMatchObject({ batch_count: 1, event_count: 4, click_count: 2 });

    const [long, short] = [(await findSession(server.db, campaignId, viaLong))!, (await findSession(server.db, campaignId, viaShort))!];
    expect({ ...short, id: viaLong }).toEqual(long);
    expect(short.remote_ip).toBe('203.0.113.0');
    expect(await chunkSeqs(campaignId, viaShort)).toEqual([0]);
    expect((await findCampaign(server.db, campaignId))!.session_count).toBe(2);
  });

  it('starts no session a campaign cannot take whole, one already started, or under changed rules', async () => {
    const campaignId = await makeCampaign(server, { limit: 3 });
    const campaign = (await findCampaign(server.db, campaignId))!;
    const writer = new NewSessionWriter(server.db, failed);
    const start = (id: string, rules = campaign) => {
      const batch = packed({ sessionId: id, seq: 0, info: info(), events: pageEvents() });
      return writer.start(rules, batch, firstBatchRow(rules, batch, batch.info!, '127.0.0.1', Date.now()));
    };
    const admitted = () => findCampaign(server.db, campaignId).then((row) => row!.session_count);

    // One place taken; three arrive together for the two left: none is started here.
    const taken = sessionId();
    expect(await start(taken)).toBeDefined();
    expect(await Promise.all([start(sessionId()), start(sessionId()), start(sessionId())])).toEqual([undefined, undefined, undefined]);
    expect(await admitted()).toBe(1);

    // Started already (a retried first batch): not started twice, not counted twice.
    expect(await start(taken)).toBeUndefined();
    expect(await admitted()).toBe(1);

    // The campaign's address handling changed since this copy was read: the long way decides.
    await server.db.updateTable('campaigns').set({ ip_mode: 'none' }).where('id', '=', campaignId).execute();
    const stale = sessionId();
    expect(await start(stale)).toBeUndefined();
    expect(await findSession(server.db, campaignId, stale)).toBeUndefined();
    expect(await admitted()).toBe(1);
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

  it('over HTTP: follows another node\'s writes to the session and to the campaign', async () => {
    const campaignId = await makeCampaign(server);
    const campaign = (await findCampaign(server.db, campaignId))!;
    const id = sessionId();
    const start = Date.now() - 60_000;
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents(start) })).status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: clickAt(start + 3000) })).status).toBe(200);
    // "Another node" stores seq 2: this node's row for the session is now stale.
    await storeBatch(server.db, campaign, packed({ sessionId: id, seq: 2, events: clickAt(start + 6000) }), '127.0.0.1', caps());
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 3, events: clickAt(start + 9000) })).status).toBe(200);
    expect(await findSession(server.db, campaignId, id)).toMatchObject({ batch_count: 4, click_count: 4 });
    expect(await chunkSeqs(campaignId, id)).toEqual([0, 1, 2, 3]);

    // "Another node" takes the shop off the campaign: this node's kept copy still lists it, but
    // the next batch from the shop is refused, and one from the new domain is taken.
    await server.db.updateTable('campaigns').set({ domains: 'new.example.com' }).where('id', '=', campaignId).execute();
    const refused = await postBatch(server, campaignId, { sessionId: id, seq: 4, events: clickAt(start + 12_000) });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const taken = await postBatch(server, campaignId, { sessionId: id, seq: 4, events: clickAt(start + 12_000) }, { origin: 'https://new.example.com' });
    expect(taken.status).toBe(200);
    expect(await chunkSeqs(campaignId, id)).toEqual([0, 1, 2, 3, 4]);
  });
});
