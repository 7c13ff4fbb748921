import type { Db } from '../db/index.js';
import { isPostgres } from '../db/index.js';
import type { CampaignRow } from '../campaigns/repository.js';
import type { PackedBatch } from '../ingest/pack-batch.js';
import { sessionCounters, type SessionState } from '../sessions/repository.js';
import { RecentlyUsed } from '../recently-used.js';
import type { SessionCaps } from './rules.js';
import type { FactMarks } from '../../common/session-facts.js';
import type { WriterLog } from './statement-groups.js';
import { SqliteWriter } from './sqlite-writer.js';
import { PostgresWriter } from './postgres-writer.js';

/**
 * Recordings: the one place that writes sessions, their chunks and a campaign's count of
 * admitted sessions. Made once in buildApp; ingest hands it packed batches.
 */

export const LIMIT_REACHED = 'Session limit reached for this campaign';
export const INFO_REQUIRED = 'The first batch of a session must carry its info';
/** What a session that reached a cap answers from then on: the tracker stops for the tab. */
export const SESSION_CLOSED_STATUS = 410;

export interface WriteOutcome {
  /** The batch's chunk went in (false: a retried batch, stored already, counted nothing). */
  stored: boolean;
  /** The batch started its session, which took one of the campaign's places. */
  admitted: boolean;
  /** The session is (now) closed at a cap, why: the batch was not stored. */
  closed?: string;
  /** PostgreSQL: the campaign the batch was judged by has changed since (another node): judge it again. */
  campaignChanged?: true;
  /** A stored batch: what folding its moments into the session's facts found (clicks, their verdicts, errors…), for the heatmaps. */
  marks?: FactMarks;
}

/** Where a batch goes: its campaign, the sender's address, and its session's row as last seen (undefined: a new session). */
export interface Destination {
  campaign: CampaignRow;
  ip: string;
  lastSeen: SessionState | undefined;
}

export interface Recordings {
  /**
   * The session's row as this node last saw it (read now if it has not): what the new-session
   * limits and the 410 of a closed session are decided on before writing. Exact on SQLite (this
   * process is the only writer); on PostgreSQL the writer checks it.
   */
  lastSeen(campaignId: string, sessionId: string): Promise<SessionState | undefined>;
  /** Admits the session if it is new, counts the batch within its caps and stores its chunk; resolves once committed. */
  write(batch: PackedBatch, to: Destination): Promise<WriteOutcome>;
}

/** The sessions' rows as this node last wrote or read them, by campaign and session. */
export class LastSeenRows {
  /** Bounded: a row is a few hundred bytes; a forgotten session is only read again. */
  readonly #rows = new RecentlyUsed<string, SessionState>(5_000);

  /** The row as last written or read, else as read now. */
  async get(db: Db, campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    const remembered = this.#rows.get(`${campaignId}/${sessionId}`);
    if (remembered) return remembered;
    const row = await sessionCounters(db, campaignId, sessionId);
    this.set(campaignId, sessionId, row);
    return row;
  }

  set(campaignId: string, sessionId: string, row: SessionState | undefined): void {
    if (row) this.#rows.set(`${campaignId}/${sessionId}`, row);
    else this.#rows.delete(`${campaignId}/${sessionId}`);
  }
}

export function openRecordings(db: Db, caps: SessionCaps, log: WriterLog): Recordings {
  return isPostgres(db) ? new PostgresWriter(db, caps, log) : new SqliteWriter(db, caps);
}
