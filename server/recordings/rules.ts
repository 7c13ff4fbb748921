import type { SessionRow, STATE_COLUMNS, VERDICT_COLUMNS } from '../sessions/rows.js';
import type { CampaignRow } from '../db/schema.js';
import type { Dialect } from './statement.js';
import type { SessionInfo } from '../../common/api-types.js';
import type { FactMarks, Moment } from '../../common/session-facts.js';

/**
 * The rules of a session's counters, defined once: what a stored batch raises, the caps it may
 * not pass and why a session closes at one, and how the campaign admits a session. Both writers
 * write their SQL from these (once, when made) and the JS checks read them too.
 */

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

export const LIMIT_REACHED = 'Session limit reached for this campaign';
export const INFO_REQUIRED = 'The first batch of a session must carry its info';

type CounterColumn = 'event_count' | 'byte_count' | 'batch_count' | 'page_count' | 'has_human_input';

interface Counter {
  column: CounterColumn;
  /** What one batch adds (a `flag` is set to 1 by a batch that has it, and stays). */
  grows: (batch: BatchCounts) => number;
  /** PostgreSQL's type for an array of it. */
  type: 'int' | 'bigint';
  flag?: true;
}

/** What a stored batch raises on its session's row. */
export const COUNTERS: readonly Counter[] = [
  { column: 'event_count', grows: (batch) => batch.eventCount, type: 'int' },
  { column: 'byte_count', grows: (batch) => batch.jsonBytes, type: 'bigint' },
  { column: 'batch_count', grows: () => 1, type: 'int' },
  { column: 'page_count', grows: (batch) => batch.pageLoads, type: 'int' },
  { column: 'has_human_input', grows: (batch) => (batch.humanInput ? 1 : 0), type: 'int', flag: true },
];

const MB = 1024 * 1024;

interface Cap {
  column: 'byte_count' | 'event_count' | 'batch_count';
  limit: (caps: SessionCaps) => number;
  /** Why the session closed, on its row and at the end of its replay. */
  reason: (caps: SessionCaps) => string;
}

/** A batch that would take its session past one of these closes the session instead. */
export const CAPS: readonly Cap[] = [
  {
    column: 'byte_count',
    limit: (caps) => caps.sessionMaxBytes,
    reason: (caps) => `Session closed: it reached ${Math.round(caps.sessionMaxBytes / MB)} MB of events`,
  },
  { column: 'event_count', limit: (caps) => caps.sessionMaxEvents, reason: (caps) => `Session closed: it reached ${caps.sessionMaxEvents} events` },
  { column: 'batch_count', limit: (caps) => caps.sessionMaxBatches, reason: (caps) => `Session closed: it reached ${caps.sessionMaxBatches} batches` },
];

const growsBy = (column: string, batch: BatchCounts) => COUNTERS.find((counter) => counter.column === column)!.grows(batch);

export type Counted = Pick<SessionRow, CounterColumn>;

/** A new session's counters, before its first batch. */
export const NOTHING_COUNTED: Counted = { event_count: 0, byte_count: 0, batch_count: 0, page_count: 0, has_human_input: 0 };

/** The reason a session is closed when this batch would take it past a cap, else null. */
export function capReached(row: Pick<SessionRow, Cap['column']>, batch: BatchCounts, caps: SessionCaps): string | null {
  const passed = CAPS.find((cap) => row[cap.column] + growsBy(cap.column, batch) > cap.limit(caps));
  return passed ? passed.reason(caps) : null;
}

/** The counters as the batch leaves them. */
export function raised(row: Counted, batch: BatchCounts): Counted {
  const next = { ...row };
  for (const { column, grows, flag } of COUNTERS) next[column] = flag ? Math.max(row[column], grows(batch)) : row[column] + grows(batch);
  return next;
}

/** The parameter (or column) holding what the batch adds to `column`, and each cap's limit. */
export const grownName = (column: string) => `grows_${column}`;
export const limitName = (column: string) => `cap_${column}`;

/**
 * SQL: the SET assignments that raise the counters of `row` (the updated table's alias), where
 * `by(column)` is what the batch adds to it.
 */
export function raiseSql(dialect: Dialect, row: string, by: (column: string) => string): string {
  const max = dialect === 'postgres' ? 'greatest' : 'max';
  return COUNTERS.map(({ column, flag }) =>
    flag ? `${column} = ${max}(${row}.${column}, ${by(column)})` : `${column} = ${row}.${column} + ${by(column)}`,
  ).join(', ');
}

/** SQL: `row` stays within every cap once raised by the batch; `limit(column)` is the cap's value. */
export function withinCapsSql(row: string, by: (column: string) => string, limit: (column: string) => string): string {
  return CAPS.map(({ column }) => `${row}.${column} <= ${limit(column)} - ${by(column)}`).join(' and ');
}

/** The caps' values as parameters, by limitName. */
export function capValues(caps: SessionCaps): Record<string, number> {
  return Object.fromEntries(CAPS.map((cap) => [limitName(cap.column), cap.limit(caps)]));
}

/**
 * SQL: the campaign `k` admits `n` more sessions only if all fit under its limit (0: none), by
 * one conditional UPDATE, so concurrent first batches never admit past it.
 */
export const admissionSql = (k: string, n: string) => ({
  set: `session_count = ${k}.session_count + ${n}`,
  fits: `(${k}.session_limit = 0 or ${k}.session_count + ${n} <= ${k}.session_limit)`,
});
