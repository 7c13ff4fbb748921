import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { prefixEnd, searchKey } from './search-terms.js';
import type { SessionQuery } from './query.js';

// The sessions list's search box and user filter, by the sessions' search terms (session_terms,
// migration 0031): a prefix is one range of its (campaign_id, term) index on both databases.

type Sessions = ExpressionBuilder<Database, 'sessions'>;

/** Whether the session has a term starting with `prefix` (lower-cased already). */
export function hasTerm(eb: Sessions, prefix: string): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('session_terms as t')
      .select('t.term')
      .whereRef('t.campaign_id', '=', 'sessions.campaign_id')
      .whereRef('t.session_id', '=', 'sessions.id')
      .where('t.term', '>=', prefix)
      .where('t.term', '<', prefixEnd(prefix)),
  );
}

/**
 * The user filter: user ids that start with `user`, as written (case and all). The terms find the
 * candidates (any case); the row's own id decides. Lengths count code points, as substr does.
 */
export function userStartsWith(eb: Sessions, user: string): Expression<SqlBool> {
  const exact = sql<SqlBool>`substr(${sql.ref('user_id')}, 1, ${[...user].length}) = ${user}`;
  return eb.and([hasTerm(eb, searchKey(user)), exact]);
}

/**
 * A prefix found in at most this many terms is rare: the list is read by those sessions' ids
 * (one index range, then a primary-key read each). As for events (people/filters.ts): at 5,000
 * the bench's 1-in-45 prefix took SQLite 4× longer by ids than along the list (PostgreSQL 2× less).
 */
export const RARE_TERMS = 1000;

/**
 * The search (or user) prefix as the database answers it fastest. A rare one's sessions are read
 * first, by one range of session_terms_term, and the page is read by their ids (walking the list
 * and probing each session would read the whole campaign). A common one leaves the query as it
 * is: the list is walked in its order with a probe per session (filtered()), which fills a page soon.
 */
export async function bySearch(db: Executor, campaignId: string, query: SessionQuery): Promise<SessionQuery> {
  const text = query.search ?? query.user;
  const prefix = text === undefined ? '' : searchKey(text);
  if (!prefix) return query;
  const rows = await db
    .selectFrom('session_terms')
    .select('session_id')
    .where('campaign_id', '=', campaignId)
    .where('term', '>=', prefix)
    .where('term', '<', prefixEnd(prefix))
    .limit(RARE_TERMS + 1)
    .execute();
  if (rows.length > RARE_TERMS) return query;
  const found = new Set(rows.map((row) => row.session_id));
  const sessionIds = query.sessionIds ? query.sessionIds.filter((id) => found.has(id)) : [...found];
  return { ...query, sessionIds };
}
