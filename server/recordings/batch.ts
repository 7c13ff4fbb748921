import type { SessionInfo } from '../../common/api-types.js';
import type { FactMarks, Moment } from '../../common/session-facts.js';
import type { CampaignRow } from '../db/schema.js';
import type { SessionRow, STATE_COLUMNS, VERDICT_COLUMNS } from '../sessions/rows.js';

// The batch recordings accepts and what it answers, as types only: ingest packs a batch into this
// shape, and the writers (transaction-writer.ts, postgres-batching.ts) take it. Nothing here runs.

/** The caps one session may reach (config.limits). */
export interface SessionCaps {
  sessionMaxBytes: number;
  sessionMaxEvents: number;
  sessionMaxBatches: number;
}

/** A batch as the session's counters see it. */
export interface BatchCounts {
  eventCount: number;
  jsonBytes: number;
  pageLoads: number;
  humanInput: boolean;
}

/**
 * A session's row as the writer sees it: what the per-session caps count, whether the session
 * was closed at one, and the facts the next batch folds its moments into (read with the same
 * row, so the usual batch's facts go in the UPDATE that counts it).
 */
export type SessionState = Pick<SessionRow, (typeof STATE_COLUMNS)[number]>;

/** A session's row as a batch counted it: its state and what its bot verdict is made from. */
export type CountedSession = SessionState & Pick<SessionRow, (typeof VERDICT_COLUMNS)[number]>;

/** What ingest learns of a session's visitor from its first batch: the address as seen (stored as the campaign says), its country, the browser's name. */
export interface Visitor {
  ip: string;
  countryCode: string | null;
  country: string | null;
  browserName: string | null;
}

/** A batch as recordings accepts it: checked and packed by ingest, its chunk ready to store. */
export interface RecordedBatch extends BatchCounts {
  sessionId: string;
  seq: number;
  /** A session's first batch carries its info, and ingest adds its visitor (null on later batches). */
  info: SessionInfo | null;
  visitor: Visitor | null;
  firstTs: number;
  lastTs: number;
  /** What the session-facts rules look at in this batch, folded into the row when it is stored. */
  moments: Moment[];
  /** The stored chunk (storage/chunk-codec.ts): its events in time order, encoded, or the body as received. */
  chunk: Uint8Array;
}

/** Where a batch goes: its campaign and its session's row as last seen (undefined: a new session). */
export interface Destination {
  campaign: CampaignRow;
  lastSeen: SessionState | undefined;
}

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
