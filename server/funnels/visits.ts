import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import type { Moment } from '../../common/session-facts.js';
import { MAX_PAGES } from '../../common/session-facts.js';
import { storable } from '../../common/scrub.js';
import { MAX_CLICK_VISITS, MAX_EVENT_VISITS, type Visit } from '../../common/funnels.js';
import type { HeatRecord } from '../heatmaps/records.js';

// What sessions did, in order, for funnels with click and event steps (session_visits, migration
// 0028): ingest hands each stored batch here (no I/O), and the log writes its pages, clicks and
// custom events a second later in one transaction, as the error log does. Derived from what the
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

interface StoredBatch {
  seq: number;
  moments: Moment[];
  heat: HeatRecord[];
}

/** A batch's pages, clicks and custom events in time order (a page before what happened at its very millisecond). */
export function visitsOfBatch(batch: StoredBatch): (Visit & { seq: number; text: string })[] {
  const visits: (Visit & { text: string })[] = [];
  for (const moment of batch.moments) {
    if (moment.kind === 'page') visits.push({ kind: 'page', value: moment.path, text: '', at: moment.t });
    else if (moment.kind === 'event') visits.push({ kind: 'event', value: moment.name, text: '', at: moment.t });
  }
  for (const record of batch.heat)
    if (record.kind === 'click') visits.push({ kind: 'click', value: storable(record.s), text: storable(record.text), at: record.t });
  const order = (v: Visit) => (v.kind === 'page' ? 0 : 1);
  return visits
    .sort((a, b) => a.at - b.at || order(a) - order(b))
    .slice(0, PER_BATCH)
    .map((visit, i) => ({ ...visit, seq: batch.seq * PER_BATCH + i }));
}

export class VisitLog {
  private pending: PendingVisit[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A stored batch: its visits wait for the next write. */
  add(campaignId: string, sessionId: string, batch: StoredBatch): void {
    for (const visit of visitsOfBatch(batch)) {
      if (this.pending.length < MAX_PENDING) this.pending.push({ ...visit, campaignId, sessionId });
      else this.dropped++;
    }
    if (this.pending.length && !this.timer) this.timer = setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what waits (funnel reads call it first, so they count every stored batch); a failed write is logged. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending;
    this.pending = [];
    if (this.dropped) this.log.warn({ dropped: this.dropped }, 'funnel visits dropped: too many waiting');
    this.dropped = 0;
    this.writing = this.writing.then(() =>
      rows.length
        ? write(this.db, rows).catch((error: unknown) => this.log.warn({ err: error, visits: rows.length }, 'funnel visits write failed'))
        : undefined,
    );
    return this.writing;
  }
}

/** One transaction; per session, three statements: is it still there, how many visits it keeps, the new ones within the caps. */
async function write(db: Db, rows: PendingVisit[]): Promise<void> {
  const sessions = new Map<string, PendingVisit[]>();
  for (const row of rows) {
    const key = `${row.campaignId}\n${row.sessionId}`;
    const found = sessions.get(key);
    if (found) found.push(row);
    else sessions.set(key, [row]);
  }
  await db.transaction().execute(async (trx) => {
    for (const visits of sessions.values()) {
      const { campaignId, sessionId } = visits[0];
      const session = await trx.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).where('id', '=', sessionId).executeTakeFirst();
      if (!session) continue;
      const kept = await trx
        .selectFrom('session_visits')
        .select((eb) => ['kind', eb.fn.countAll<number | string>().as('n')])
        .where('campaign_id', '=', campaignId)
        .where('session_id', '=', sessionId)
        .groupBy('kind')
        .execute();
      // The first visits of each kind are kept: past its kind's cap, a visit is not written.
      const room = { ...CAP };
      for (const { kind, n } of kept) room[kind] -= Number(n);
      const values = visits
        .filter((v) => room[v.kind]-- > 0)
        .map(({ seq, kind, value, text, at }) => ({ campaign_id: campaignId, session_id: sessionId, seq, kind, value, text, at }));
      if (values.length)
        await trx
          .insertInto('session_visits')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
  });
}
