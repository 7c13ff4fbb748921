import { isPostgres, type Db } from '../db/index.js';
import type { Destination, RecordedBatch, SessionCaps, SessionState, WriteOutcome } from './batch.js';
import { PostgresWriter, type WriterLog } from './postgres-batching.js';
import { SqliteWriter } from './sqlite-writer.js';

/**
 * Recordings: the one place that writes sessions, their chunks and a campaign's count of
 * admitted sessions. Made once in buildApp; ingest hands it packed batches (batch.ts RecordedBatch).
 * It picks the database's writer (sqlite-writer.ts's SqliteWriter, postgres-batching.ts's
 * PostgresWriter), which ctx.recordings then is: no code of this file runs for a batch.
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

export function openRecordings(db: Db, caps: SessionCaps, log: WriterLog): Recordings {
  return isPostgres(db) ? new PostgresWriter(db, caps, log) : new SqliteWriter(db, caps);
}
