import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../db/executor.js';
import { decodeCursor, hasSessionFilters, type SessionQuery } from '../sessions/query.js';

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

/** Whether the event is the query's only filter (paging aside). */
const onlyEvent = ({ event, cursor, limit, sort, ...filters }: SessionQuery) => !hasSessionFilters(filters);

/**
 * The event filter as the database answers it fastest. The newest page, when nothing else
 * filters it, is one range of session_events_name by start time (migration 0027). Otherwise a
 * rare event's sessions are read first, up to RARE_EVENT_SESSIONS: when that is all of them, the
 * page is those ids (walking the list and checking each session would read the whole campaign);
 * for a common event the list is walked in its order with an EXISTS per session (filtered()),
 * which fills a page soon.
 */
export async function byEvent(db: Executor, campaignId: string, query: SessionQuery): Promise<SessionQuery> {
  const named = db
    .selectFrom('session_events')
    .select('session_id')
    .where('campaign_id', '=', campaignId)
    .where('name', '=', query.event as string);
  if ((query.sort ?? 'newest') === 'newest' && onlyEvent(query)) {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const newest = await named
      .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('started_at', 'session_id'), '<', eb.tuple(...(after as [number, string])))))
      .orderBy('started_at', 'desc')
      .orderBy('session_id', 'desc')
      .limit(query.limit + 1)
      .execute();
    return { ...query, event: undefined, sessionIds: newest.map((row) => row.session_id) };
  }
  const rows = await named.limit(RARE_EVENT_SESSIONS + 1).execute();
  if (rows.length > RARE_EVENT_SESSIONS) return query;
  return { ...query, event: undefined, sessionIds: rows.map((row) => row.session_id) };
}
