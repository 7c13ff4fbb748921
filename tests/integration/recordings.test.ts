import { describe, expect, it } from 'vitest';
import { usingPostgres, type TestServer } from '../helpers/server.js';
import { findSession } from '../../server/sessions/repository.js';
import { sessionCounters } from '../../server/recordings/transaction-writer.js';
import { HttpError } from '../../server/http/errors.js';
import { LIMIT_REACHED } from '../../server/recordings/rules.js';
import type { WriteOutcome } from '../../server/recordings/batch.js';
import { CAPS } from '../../server/recordings/rules.js';
import { MAX_SEQ } from '../../common/limits.js';
import { NOTE_TAG } from '../../common/captured.js';
import { info, pageEvents, sessionId, storedCounts } from './ingest-support.js';
import { admittedCount, campaignRow, chunkSeqs, clickAt, eventsOf, packed, useRecordingsServer, writerFor } from './recordings-support.js';

// The one writer of sessions, chunks and a campaign's admitted sessions (server/recordings/),
// on the database the tests run on: SQLite, or PostgreSQL with TEST_DATABASE_URL.

describe(`recordings on ${usingPostgres() ? 'PostgreSQL' : 'SQLite'}`, () => {
  let server: TestServer;
  const log = useRecordingsServer((started) => (server = started));

  const first = (id: string, start = Date.now() - 60_000) => packed({ sessionId: id, seq: 0, info: info(), events: pageEvents(start) });

  it('closes a session at each cap, with the reason on its row and as a note at the end of its replay', async () => {
    for (const cap of CAPS) {
      const campaign = await campaignRow(server);
      const id = sessionId();
      const start = Date.now() - 60_000;
      const seq1 = packed({ sessionId: id, seq: 1, events: clickAt(start + 3000) });
      // The cap set where seq 1 would pass it.
      const limit = {
        byte_count: { sessionMaxBytes: first(id).jsonBytes + seq1.jsonBytes - 1 },
        event_count: { sessionMaxEvents: 4 - 1 },
        batch_count: { sessionMaxBatches: 1 },
      }[cap.column];
      const writer = writerFor(server, log, limit);
      const reason = cap.reason({ ...server.config.limits, ...limit });
      expect(await writer.write(first(id, start), { campaign, lastSeen: undefined })).toEqual<WriteOutcome>({
        stored: true,
        admitted: true,
        marks: expect.any(Array),
      });
      const lastSeen = await writer.lastSeen(campaign.id, id);
      expect(await writer.write(seq1, { campaign, lastSeen }), cap.column).toEqual<WriteOutcome>({ stored: false, admitted: false, closed: reason });
      expect(await findSession(server.db, campaign.id, id)).toMatchObject({ closed_reason: reason, batch_count: 1, event_count: 3 });
      expect(await chunkSeqs(server, campaign.id, id)).toEqual([0, MAX_SEQ + 1]);
      const note = (await eventsOf(server, campaign.id, id))[1];
      expect(note).toEqual([{ type: 5, data: { tag: NOTE_TAG, payload: { stopped: reason } }, timestamp: seq1.lastTs }]);
      // Closed: the next batch is answered so, and stores nothing.
      const next = packed({ sessionId: id, seq: 2, events: clickAt(start + 6000) });
      expect(await writer.write(next, { campaign, lastSeen: await writer.lastSeen(campaign.id, id) })).toEqual<WriteOutcome>({
        stored: false,
        admitted: false,
        closed: reason,
      });
      expect(await chunkSeqs(server, campaign.id, id)).toEqual([0, MAX_SEQ + 1]);
    }
  });

  it('closes a session whose first batch alone passes a cap, admitted with nothing of the batch', async () => {
    const campaign = await campaignRow(server);
    const writer = writerFor(server, log, { sessionMaxEvents: 2 });
    const id = sessionId();
    const outcome = await writer.write(first(id), { campaign, lastSeen: undefined });
    expect(outcome).toEqual<WriteOutcome>({ stored: false, admitted: true, closed: 'Session closed: it reached 2 events' });
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ event_count: 0, batch_count: 0, closed_reason: outcome.closed });
    expect(await chunkSeqs(server, campaign.id, id)).toEqual([MAX_SEQ + 1]);
  });

  it('counts a retried (session, seq) nothing, whatever row it is written against', async () => {
    const campaign = await campaignRow(server);
    const writer = writerFor(server, log);
    const id = sessionId();
    const start = Date.now() - 60_000;
    await writer.write(first(id, start), { campaign, lastSeen: undefined });
    const seq1 = packed({ sessionId: id, seq: 1, events: clickAt(start + 3000) });
    expect(await writer.write(seq1, { campaign, lastSeen: await writer.lastSeen(campaign.id, id) })).toEqual<WriteOutcome>({
      stored: true,
      admitted: false,
      marks: expect.any(Array),
    });
    const counted = await sessionCounters(server.db, campaign.id, id);
    // Again as last seen, as a first batch, and against the row before seq 1: nothing moves.
    expect(await writer.write(seq1, { campaign, lastSeen: await writer.lastSeen(campaign.id, id) })).toEqual<WriteOutcome>({
      stored: false,
      admitted: false,
    });
    expect(await writer.write(first(id, start), { campaign, lastSeen: undefined })).toEqual<WriteOutcome>({ stored: false, admitted: false });
    expect(await sessionCounters(server.db, campaign.id, id)).toEqual(counted);
    expect(await chunkSeqs(server, campaign.id, id)).toEqual([0, 1]);
    expect(await admittedCount(server, campaign.id)).toBe(1);
  });

  it('never admits past the campaign’s limit, however many first batches arrive at once', async () => {
    const campaign = await campaignRow(server, { limit: 3 });
    const writer = writerFor(server, log);
    const ids = Array.from({ length: 8 }, () => sessionId());
    const outcomes = await Promise.allSettled(ids.map((id) => writer.write(first(id), { campaign, lastSeen: undefined })));
    const admitted = outcomes.filter((o) => o.status === 'fulfilled');
    expect(admitted).toHaveLength(3);
    for (const o of admitted) expect(o.value).toEqual<WriteOutcome>({ stored: true, admitted: true, marks: expect.any(Array) });
    for (const o of outcomes.filter((o) => o.status === 'rejected')) expect(o.reason).toMatchObject({ statusCode: 403, message: LIMIT_REACHED });
    expect(await admittedCount(server, campaign.id)).toBe(3);
    expect(await storedCounts(server, campaign.id)).toEqual({ sessions: 3, chunks: 3 });
  });

  it('leaves nothing of a session it refuses: no row, no chunk, no place', async () => {
    const campaign = await campaignRow(server, { limit: 1 });
    const writer = writerFor(server, log);
    await writer.write(first(sessionId()), { campaign, lastSeen: undefined });
    const refused = sessionId();
    const error = await writer.write(first(refused), { campaign, lastSeen: undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 403, message: LIMIT_REACHED });
    expect(await findSession(server.db, campaign.id, refused)).toBeUndefined();
    expect(await chunkSeqs(server, campaign.id, refused)).toEqual([]);
    expect(await admittedCount(server, campaign.id)).toBe(1);
    // A batch without the session's info starts nothing either.
    const noInfo = packed({ sessionId: sessionId(), seq: 0, events: pageEvents() });
    await expect(writerFor(server, log).write(noInfo, { campaign: await campaignRow(server), lastSeen: undefined })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('folds each batch’s facts onto the row as it is, even when it was last seen before another batch', async () => {
    const campaign = await campaignRow(server);
    const writer = writerFor(server, log);
    const id = sessionId();
    const start = Date.now() - 60_000;
    // Clicks far apart in time and space: each counts once, none is a rage click.
    const clicks = (at: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: 3, data: { source: 2, type: 2, id: 1, x: 10 + 200 * i, y: 10 }, timestamp: at + 5000 * i }));
    await writer.write(first(id, start), { campaign, lastSeen: undefined });
    const beforeSeq1 = await writer.lastSeen(campaign.id, id);
    await writer.write(packed({ sessionId: id, seq: 1, events: clicks(start + 10_000, 1) }), { campaign, lastSeen: beforeSeq1 });
    // Seen before seq 1 was stored: its facts are stale and must not be written back.
    const outcome = await writer.write(packed({ sessionId: id, seq: 2, events: clicks(start + 20_000, 2) }), { campaign, lastSeen: beforeSeq1 });
    expect(outcome).toEqual<WriteOutcome>({ stored: true, admitted: false, marks: expect.any(Array) });
    // What the fold found is the batch's own clicks, for the heatmaps.
    expect(outcome.marks?.filter((m) => m.kind === 'click').map((m) => m.t)).toEqual([start + 20_000, start + 25_000]);
    expect(await findSession(server.db, campaign.id, id)).toMatchObject({ batch_count: 3, click_count: 4, page_count: 1 });
    // The writer's last seen row is the row as stored.
    expect(await writer.lastSeen(campaign.id, id)).toEqual(await sessionCounters(server.db, campaign.id, id));
  });

  it('never folds a batch onto the facts of a session erased since it was last seen, even at the same batch count', async () => {
    const campaign = await campaignRow(server);
    const writer = writerFor(server, log);
    const id = sessionId();
    const click = (at: number) => ({ type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 10 }, timestamp: at });
    const now = Date.now();
    await writer.write(packed({ sessionId: id, seq: 0, info: info(), events: [...pageEvents(now - 60_000), click(now - 50_000)] }), {
      campaign,
      lastSeen: undefined,
    });
    const beforeErasure = (await writer.lastSeen(campaign.id, id))!;
    expect(beforeErasure.click_count).toBe(2); // the page's own click and this one
    await server.db.deleteFrom('chunks').where('session_id', '=', id).execute();
    await server.db.deleteFrom('sessions').where('id', '=', id).execute();
    // Started again (by "another node"): the same batch count as the row seen before the erasure.
    await writerFor(server, log).write(first(id, now - 20_000), { campaign, lastSeen: undefined });
    await writer.write(packed({ sessionId: id, seq: 1, events: [click(now - 5000)] }), { campaign, lastSeen: beforeErasure });
    expect(await sessionCounters(server.db, campaign.id, id)).toMatchObject({ batch_count: 2, click_count: 2 });
  });

  it('keeps the bot verdict current as batches arrive', async () => {
    const campaign = await campaignRow(server);
    const writer = writerFor(server, log);
    const id = sessionId();
    const start = Date.now() - 60_000;
    const scrolls = Array.from({ length: 250 }, (_, i) => ({ type: 3, data: { source: 3, id: 1, x: 0, y: i }, timestamp: start + 100 + i }));
    await writer.write(packed({ sessionId: id, seq: 0, info: info(), events: [pageEvents(start)[1], ...scrolls] }), { campaign, lastSeen: undefined });
    const verdict = async () => (({ is_bot, bot_reason }) => ({ is_bot, bot_reason }))((await findSession(server.db, campaign.id, id))!);
    expect(await verdict()).toEqual({ is_bot: 1, bot_reason: 'No human input: no mouse, touch or pointer activity' });
    await writer.write(packed({ sessionId: id, seq: 1, events: clickAt(start + 3000) }), { campaign, lastSeen: await writer.lastSeen(campaign.id, id) });
    expect(await verdict()).toEqual({ is_bot: 0, bot_reason: null });
  });

  it('writes the batches that arrive together, each on its own merits, each answered once committed', async () => {
    const campaign = await campaignRow(server, { limit: 2 });
    const writer = writerFor(server, log);
    const [a, b, c] = [sessionId(), sessionId(), sessionId()];
    const start = Date.now() - 60_000;
    await writer.write(first(a, start), { campaign, lastSeen: undefined });
    const seenA = await writer.lastSeen(campaign.id, a);
    const answers = await Promise.allSettled([
      writer.write(packed({ sessionId: a, seq: 1, events: clickAt(start + 3000) }), { campaign, lastSeen: seenA }),
      writer.write(packed({ sessionId: a, seq: 2, events: clickAt(start + 6000) }), { campaign, lastSeen: seenA }),
      writer.write(first(a, start), { campaign, lastSeen: undefined }),
      writer.write(first(b), { campaign, lastSeen: undefined }),
      writer.write(first(c), { campaign, lastSeen: undefined }),
    ]);
    expect(answers.slice(0, 3)).toEqual([
      { status: 'fulfilled', value: { stored: true, admitted: false, marks: expect.any(Array) } },
      { status: 'fulfilled', value: { stored: true, admitted: false, marks: expect.any(Array) } },
      { status: 'fulfilled', value: { stored: false, admitted: false } },
    ]);
    // One place was left: one of b and c has it, the other is refused and leaves nothing.
    expect(
      answers
        .slice(3)
        .map((o) => o.status)
        .sort(),
    ).toEqual(['fulfilled', 'rejected']);
    expect(await chunkSeqs(server, campaign.id, a)).toEqual([0, 1, 2]);
    expect(await findSession(server.db, campaign.id, a)).toMatchObject({ batch_count: 3, click_count: 3 });
    expect(await storedCounts(server, campaign.id)).toEqual({ sessions: 2, chunks: 4 });
    expect(await admittedCount(server, campaign.id)).toBe(2);
  });
});
