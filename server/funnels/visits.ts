import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import { slices } from '../db/slices.js';
import type { SessionVisitsTable } from '../db/schema-insights.js';
import { MAX_PAGES } from '../../common/session-facts.js';
import { storable } from '../../common/scrub.js';
import { MAX_CLICK_VISITS, MAX_EVENT_VISITS, type Visit } from '../../common/funnels.js';
import { BufferedWriter } from '../recordings/buffered-writer.js';
import type { Projection, StoredBatch } from '../recordings/after-stored.js';

// What sessions did, in order, for funnels with click and event steps (session_visits, migration
// 0028): ingest hands each stored batch here (no I/O), and the log writes its pages, clicks and
// custom events a second later in one transaction (recordings/buffered-writer.ts). Derived from what the
// recording already carries (page loads, the heatmaps' click records, tapedeck.event), so the
// tracker sends nothing more. Bounded: per session, MAX_PAGES pages, MAX_CLICK_VISITS clicks and
// MAX_EVENT_VISITS events (the first ones); MAX_PENDING visits waiting, more dropped until written.
// A session deleted meanwhile is skipped.

const FLUSH_MS = 1000;
const MAX_PENDING = 10_000;
/** Visits of one batch (its seq × this + the visit's place orders visits of one millisecond). */
const PER_BATCH = 1024;
const CAP: Record<Visit['kind'], number> = { page: MAX_PAGES, click: MAX_CLICK_VISITS, event: MAX_EVENT_VISITS };

interface PendingVisit extends Visit {
  campaignId: string;
  sessionId: string;
  seq: number;
  text: string;
}

type SessionVisitRow = Insertable<SessionVisitsTable>;

/** A page loaded at the moment of a click or event goes before it. */
const pageFirst = (v: Visit) => (v.kind === 'page' ? 0 : 1);

/** A batch's pages, clicks and custom events in time order (a page before what happened at its very millisecond). */
export function visitsOfBatch(batch: Pick<StoredBatch, 'seq' | 'moments' | 'heat'>): (Visit & { seq: number; text: string })[] {
  const visits: (Visit & { text: string })[] = [];
  for (const moment of batch.moments) {
    if (moment.kind === 'page') visits.push({ kind: 'page', value: moment.path, text: '', at: moment.t });
    else if (moment.kind === 'event') visits.push({ kind: 'event', value: moment.name, text: '', at: moment.t });
  }
  for (const record of batch.heat)
    if (record.kind === 'click') visits.push({ kind: 'click', value: storable(record.s), text: storable(record.text), at: record.t });
  return visits
    .sort((a, b) => a.at - b.at || pageFirst(a) - pageFirst(b))
    .slice(0, PER_BATCH)
    .map((visit, i) => ({ ...visit, seq: batch.seq * PER_BATCH + i }));
}

/** A projection of stored batches (recordings/after-stored.ts): their visits, for funnels. */
export class VisitLog implements Projection {
  private readonly writer: BufferedWriter<PendingVisit>;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.writer = new BufferedWriter({ name: 'funnel visit log', flushMs: FLUSH_MS, maxPending: MAX_PENDING, log, write: (rows) => write(db, rows) });
  }

  /** A stored batch: its visits wait for the next write. */
  stored(batch: StoredBatch): void {
    if (!batch.outcome.stored) return;
    const { campaignId, sessionId } = batch;
    for (const visit of visitsOfBatch(batch)) this.writer.entry(`${campaignId}\n${sessionId}\n${visit.seq}`, () => ({ ...visit, campaignId, sessionId }));
  }

  flush = (): Promise<void> => this.writer.flush();
  close = (): Promise<void> => this.writer.close();
}

/** Ids a statement names at most, and rows one insert writes (7 parameters each: within any driver's limit). */
const IDS_PER_STATEMENT = 500;
const ROWS_PER_INSERT = 1000;

/**
 * One transaction, a few statements for all the sessions that wait (not three a session: the log
 * then cost the database as much as the batches it follows): which of them are still there and how
 * many visits of each kind they keep, a campaign at a time; then the new visits within the caps.
 */
async function write(db: Db, rows: PendingVisit[]): Promise<void> {
  const byCampaign = new Map<string, Map<string, PendingVisit[]>>();
  for (const row of rows) {
    const sessions = byCampaign.get(row.campaignId) ?? new Map<string, PendingVisit[]>();
    byCampaign.set(row.campaignId, sessions);
    const visits = sessions.get(row.sessionId);
    if (visits) visits.push(row);
    else sessions.set(row.sessionId, [row]);
  }
  await db.transaction().execute(async (trx) => {
    const values: SessionVisitRow[] = [];
    for (const [campaignId, sessions] of byCampaign) {
      for (const ids of slices([...sessions.keys()], IDS_PER_STATEMENT)) {
        const present = await trx.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).where('id', 'in', ids).execute();
        const kept = await trx
          .selectFrom('session_visits')
          .select((eb) => ['session_id', 'kind', eb.fn.countAll<number | string>().as('n')])
          .where('campaign_id', '=', campaignId)
          .where('session_id', 'in', ids)
          .groupBy(['session_id', 'kind'])
          .execute();
        // The first visits of each kind are kept: past its kind's cap, a visit is not written.
        const rooms = new Map(present.map(({ id }) => [id, { ...CAP }]));
        for (const { session_id, kind, n } of kept) {
          const room = rooms.get(session_id);
          if (room) room[kind] -= Number(n);
        }
        for (const [id, room] of rooms) {
          for (const { seq, kind, value, text, at } of sessions.get(id) ?? [])
            if (room[kind]-- > 0) values.push({ campaign_id: campaignId, session_id: id, seq, kind, value, text, at });
        }
      }
    }
    for (const part of slices(values, ROWS_PER_INSERT))
      await trx
        .insertInto('session_visits')
        .values(part)
        .onConflict((oc) => oc.doNothing())
        .execute();
  });
}
