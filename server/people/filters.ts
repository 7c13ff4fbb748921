import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../db/executor.js';
import type { SessionQuery } from '../sessions/repository.js';

// The sessions list's people filters as SQL (server/sessions/repository.ts filtered() and
// pageSessions() use them): traits and tags by their JSON text, events by session_events.

/**
 * A trait or tag as it stands in its column's JSON: `"plan":"pro"`, or for a value that reads
 * as a number, true, false or null also `"age":42` followed by `,` or `}`. Key and value exact.
 */
export function pairFilter([key, value]: [string, string], column: 'traits' | 'tags'): Expression<SqlBool> {
  const escape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
  const head = escape(`${JSON.stringify(key)}:`);
  const patterns = [`%${head}${escape(JSON.stringify(value))}%`];
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(value)) patterns.push(`%${head}${value},%`, `%${head}${value}}%`);
  return sql<SqlBool>`(${sql.join(
    patterns.map((p) => sql`${sql.ref(column)} like ${p} escape '\\'`),
    sql` or `,
  )})`;
}

/** An event sent in at most this many sessions is rare: the list is read by those sessions' ids. */
export const RARE_EVENT_SESSIONS = 1000;

/**
 * The event filter as the database answers it fastest. Walking the list in its order and
 * checking each session's events (the EXISTS of filtered()) fills a page soon for a common
 * event, but reads the whole campaign for a rare one, and neither database can tell which from
 * its statistics on names. So the sessions of the event are read first, up to RARE_EVENT_SESSIONS
 * (one range of session_events_name): when that is all of them, the page is those ids.
 */
export async function byEvent(db: Executor, campaignId: string, query: SessionQuery): Promise<SessionQuery> {
  const rows = await db
    .selectFrom('session_events')
    .select('session_id')
    .where('campaign_id', '=', campaignId)
    .where('name', '=', query.event as string)
    .limit(RARE_EVENT_SESSIONS + 1)
    .execute();
  if (rows.length > RARE_EVENT_SESSIONS) return query;
  return { ...query, event: undefined, sessionIds: rows.map((row) => row.session_id) };
}
