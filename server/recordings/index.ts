import type { Db } from '../db/index.js';
import { isPostgres } from '../db/index.js';
import type { Destination, RecordedBatch, SessionCaps, SessionState, WriteOutcome } from './rules.js';
import type { WriterLog } from './statement-groups.js';
import { GroupedTransactions, LastSeenRows } from './transaction-writer.js';
import { PostgresWriter } from './postgres-writer.js';

/**
 * Recordings: the one place that writes sessions, their chunks and a campaign's count of
 * admitted sessions. Made once in buildApp; ingest hands it packed batches (rules.ts RecordedBatch).
 */

/** What a session that reached a cap answers from then on: the tracker stops for the tab. */
export const SESSION_CLOSED_STATUS = 410;

export interface Recordings {
  /**
   * The session's row as this node last saw it (read now if it has not): what the new-session
   * limits and the 410 of a closed session are decided on before writing. Exact on SQLite (this
   * process is the only writer); on PostgreSQL the writer checks it.
   */
  lastSeen(campaignId: string, sessionId: string): Promise<SessionState | undefined>;
  /** Admits the session if it is new, counts the batch within its caps and stores its chunk; resolves once committed. */
  write(batch: RecordedBatch, to: Destination): Promise<WriteOutcome>;
}

/**
 * SQLite: this process is the database's only writer, so the row it last wrote is the row. The
 * batches that arrive together share one transaction (group commit: one fsync for the group),
 * each in its own savepoint, so a refused batch is undone alone.
 */
class SqliteWriter implements Recordings {
  readonly #rows = new LastSeenRows();
  readonly #transactions: GroupedTransactions;

  constructor(
    private readonly db: Db,
    caps: SessionCaps,
  ) {
    this.#transactions = new GroupedTransactions(db, 'sqlite', caps, this.#rows, { concurrency: 1, maxGroup: 64 });
  }

  lastSeen(campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    return this.#rows.get(this.db, campaignId, sessionId);
  }

  write(batch: RecordedBatch, { campaign, lastSeen }: Destination): Promise<WriteOutcome> {
    return this.#transactions.write(campaign, batch, lastSeen);
  }
}

export function openRecordings(db: Db, caps: SessionCaps, log: WriterLog): Recordings {
  return isPostgres(db) ? new PostgresWriter(db, caps, log) : new SqliteWriter(db, caps);
}
