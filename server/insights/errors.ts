import { sql, type Expression, type SqlBool } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import { BufferedWriter } from '../recordings/buffered-writer.js';
import type { Projection, StoredBatch } from '../recordings/after-stored.js';
import type { Executor } from '../db/executor.js';
import type { Insights } from '../../common/api/insights.js';

// JavaScript errors by message. Each stored batch's error moments (with their message,
// common/session-facts.ts) go to an in-memory log, off the batch's path; the log writes them to
// session_errors a second later, one row per session and message (count, first and last time),
// in one transaction (recordings/buffered-writer.ts: bounded, retried). A session deleted
// meanwhile is skipped (its rows go with it).

const FLUSH_MS = 1000;
const MAX_PENDING = 10_000;
/** Messages listed on the dashboard. */
export const TOP_ERRORS = 20;

interface Pending {
  campaignId: string;
  sessionId: string;
  message: string;
  count: number;
  first: number;
  last: number;
}

/** A projection of stored batches (recordings/after-stored.ts): their error moments by message. */
export class ErrorLog implements Projection {
  private readonly writer: BufferedWriter<Pending>;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.writer = new BufferedWriter({ name: 'error log', flushMs: FLUSH_MS, maxPending: MAX_PENDING, log, write: (rows) => write(db, rows) });
  }

  /** A stored batch's errors (moments without a message are counted on the session row only). */
  stored({ campaignId, sessionId, moments, outcome }: StoredBatch): void {
    if (!outcome.stored) return;
    for (const moment of moments) {
      if (moment.kind !== 'error' || !moment.message) continue;
      const { message, t } = moment;
      const row = this.writer.entry(`${campaignId}\n${sessionId}\n${message}`, () => ({ campaignId, sessionId, message, count: 0, first: t, last: t }));
      if (!row) continue;
      row.count++;
      row.first = Math.min(row.first, t);
      row.last = Math.max(row.last, t);
    }
  }

  flush = (): Promise<void> => this.writer.flush();
  close = (): Promise<void> => this.writer.close();
}

async function write(db: Db, rows: Pending[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const r of rows) {
      await sql`insert into session_errors (campaign_id, session_id, message, count, first_at, last_at)
        select ${r.campaignId}, ${r.sessionId}, ${r.message}, ${r.count}, ${r.first}, ${r.last}
        where exists (select 1 from sessions where campaign_id = ${r.campaignId} and id = ${r.sessionId})
        on conflict (campaign_id, session_id, message) do update set count = session_errors.count + excluded.count,
          first_at = case when excluded.first_at < session_errors.first_at then excluded.first_at else session_errors.first_at end,
          last_at = case when excluded.last_at > session_errors.last_at then excluded.last_at else session_errors.last_at end`.execute(trx);
    }
  });
}

/** Sessions (the unaliased sessions row) that had an error with this message. */
export const hadError = (message: string) =>
  sql<SqlBool>`exists (select 1 from session_errors e where e.campaign_id = sessions.campaign_id and e.session_id = sessions.id and e.message = ${message})`;

/** The most frequent messages among the sessions of `ids` (a subquery of session ids). */
export async function errorGroups(db: Executor, campaignId: string, ids: Expression<unknown>): Promise<Insights['errors']> {
  const { rows } = await sql<Record<string, unknown>>`
    select message, sum(count) as count, count(*) as sessions, min(first_at) as first, max(last_at) as last
    from session_errors where campaign_id = ${campaignId} and session_id in (${ids})
    group by message order by sum(count) desc, message limit ${sql.lit(TOP_ERRORS)}`.execute(db);
  return rows.map((r) => ({
    message: String(r.message),
    count: Number(r.count),
    sessions: Number(r.sessions),
    firstSeen: Number(r.first),
    lastSeen: Number(r.last),
  }));
}
