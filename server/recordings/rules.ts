import type { SessionRow } from '../sessions/rows.js';
import type { Dialect } from './statement.js';

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
