import { sql } from 'kysely';
import type { Dialect } from '../recordings/statement.js';

// A session's duration, once: by the server's clock from its start to its last batch, but at
// least its active time, which the events' own clock measures (the first batch carries events
// from before it was sent, so a one-batch session has active time and no server-clock time).
// The list shows it and filters by it, Insights' duration histogram counts it. Ingest writes it
// to `duration_ms` (durationSql), so `sort=longest` orders by it through that column's index;
// the rule's forms below still read rows written before it did.

export const sessionDurationMs = (row: { duration_ms: number; active_ms: number }): number => Math.max(0, row.duration_ms, row.active_ms);

/** sessionDurationMs as the value ingest writes to `duration_ms`: `wall` (the server's clock) and `active` are SQL. */
export const durationSql = (dialect: Dialect, wall: string, active: string): string => `${dialect === 'postgres' ? 'greatest' : 'max'}(0, ${wall}, ${active})`;

/** sessionDurationMs as SQL over a sessions row, for both databases (tests/integration/session-duration.test.ts). */
export const SESSION_DURATION_MS = sql<number>`case when duration_ms >= active_ms and duration_ms > 0 then duration_ms when active_ms > 0 then active_ms else 0 end`;
