import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { prefixEnd, searchKey } from './search-terms.js';
import { decodeCursor, hasSessionFilters, type SessionQuery } from './query.js';

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
  return eb.and([hasTerm(eb, searchKey(user)), userIdStartsWith(user)]);
}

/** The row's own user id starts with `user`, as written. */
export const userIdStartsWith = (user: string) => sql<SqlBool>`substr(${sql.ref('user_id')}, 1, ${[...user].length}) = ${user}`;

/**
 * A prefix found in at most this many terms is rare: the list is read by those sessions' ids
 * (one index range, then a primary-key read each). As for events (people/filters.ts): at 5,000
 * the bench's 1-in-45 prefix took SQLite 4× longer by ids than along the list (PostgreSQL 2× less).
 */
export const RARE_TERMS = 1000;

/**
 * The search box alone, newest first, reads its page from the terms' index (sorted by start) for a
 * prefix found in at most this many terms: on 2 cores SQLite reads ~5,000 index entries a
 * millisecond and probes ~250 sessions (bench/figures/sessions-list.ts).
 */
export const COMMON_TERMS = 5000;

/**
 * A more common prefix walks this many of the newest sessions first, probing each: one found
 * in one session of 20 or more fills its page there. One in fewer sessions (a few sessions
 * with many such terms) has its page read from the terms' index after all.
 */
export const WALKED_SESSIONS = 1000;

/** A search alone is counted from its terms when they number at most this many (SQLite reads ~5,000 index entries a millisecond). */
export const COUNTED_TERMS = 20_000;

/** The campaign's terms that start with the prefix: one range of session_terms_by_start. */
const termsWith = (db: Executor, campaignId: string, prefix: string) =>
  db.selectFrom('session_terms').where('campaign_id', '=', campaignId).where('term', '>=', prefix).where('term', '<', prefixEnd(prefix));

/**
 * The prefix's first `count` terms' sessions, in its index's order: an ordered range stops there,
 * where PostgreSQL could plan an unordered one as a bitmap scan, which reads every entry of the
 * range first (all 12,500 of "de-de" at 100,000 sessions), or as a scan of the table.
 */
const firstTerms = (db: Executor, campaignId: string, prefix: string, count: number) =>
  termsWith(db, campaignId, prefix).select('session_id').orderBy('term').limit(count);

/** How many terms start with the prefix, counted along its index range up to `cap` + 1. */
async function termCount(db: Executor, campaignId: string, prefix: string, cap: number): Promise<number> {
  const terms = firstTerms(db, campaignId, prefix, cap + 1);
  const row = await db
    .selectFrom(terms.as('t'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The newest `count` sessions with a term starting with the prefix (after the cursor), newest
 * first: one range of session_terms_by_start (migration 0032) sorted by start, no session read.
 * A session with several such terms comes once; a read that found only repeats reads further.
 */
async function newestWithTerm(db: Executor, campaignId: string, prefix: string, count: number, cursor?: string): Promise<string[]> {
  const after = cursor ? decodeCursor(cursor) : null;
  const ids: string[] = [];
  for (let read = count; ; read *= 4) {
    const rows = await termsWith(db, campaignId, prefix)
      .select(['session_id', 'started_at'])
      .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('started_at', 'session_id'), '<', eb.tuple(...(after as [number, string])))))
      .orderBy('started_at', 'desc')
      .orderBy('session_id', 'desc')
      .limit(read)
      .execute();
    // In (start, id) order a session's terms are side by side.
    ids.length = 0;
    for (const row of rows) if (ids.at(-1) !== row.session_id) ids.push(row.session_id);
    if (ids.length >= count || rows.length < read) return ids.slice(0, count);
  }
}

/** Whether the search box is the query's only filter (paging aside), newest first. */
const onlySearch = ({ search, cursor, limit, sort, ...filters }: SessionQuery) => (sort ?? 'newest') === 'newest' && !hasSessionFilters(filters);

/**
 * The newest `count` sessions among the newest WALKED_SESSIONS (after the cursor) with a term
 * starting with the prefix: the list's index walked with a probe of session_terms' key each.
 */
async function walkedWithTerm(db: Executor, campaignId: string, prefix: string, count: number, cursor?: string): Promise<string[]> {
  const after = cursor ? decodeCursor(cursor) : null;
  const newest = db
    .selectFrom('sessions')
    .select(['campaign_id', 'id', 'started_at'])
    .where('campaign_id', '=', campaignId)
    .$if(after !== null, (qb) => qb.where((eb) => eb(eb.refTuple('started_at', 'id'), '<', eb.tuple(...(after as [number, string])))))
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(WALKED_SESSIONS);
  const rows = await db
    .selectFrom(newest.as('sessions'))
    .select('id')
    .where((eb) => hasTerm(eb as unknown as Sessions, prefix))
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The search (or user) prefix as the database answers it fastest, by how many terms start with
 * it. The search box alone, newest first, reads its page's sessions from the terms' index, or for
 * a common prefix from the newest sessions walked when they fill it. Otherwise a rare prefix's
 * sessions are all read (walking the list and probing each session would read the whole
 * campaign) and the page by their ids; a common one walks the list in its order with a probe per
 * session (filtered()), which fills a page soon.
 */
export async function bySearch(db: Executor, campaignId: string, query: SessionQuery, alone = onlySearch(query)): Promise<SessionQuery> {
  const text = query.search ?? query.user;
  const prefix = text === undefined ? '' : searchKey(text);
  if (!prefix) return query;
  if (alone) {
    const common = (await termCount(db, campaignId, prefix, COMMON_TERMS)) > COMMON_TERMS;
    const want = query.limit + 1;
    const walked = common ? await walkedWithTerm(db, campaignId, prefix, want, query.cursor) : [];
    const sessionIds = walked.length === want ? walked : await newestWithTerm(db, campaignId, prefix, want, query.cursor);
    return { ...query, search: undefined, sessionIds };
  }
  // A rare prefix's terms, read whole in the same statement that finds it rare.
  const rows = await firstTerms(db, campaignId, prefix, RARE_TERMS + 1).execute();
  if (rows.length > RARE_TERMS) return query;
  const found = new Set(rows.map((row) => row.session_id));
  const sessionIds = query.sessionIds ? query.sessionIds.filter((id) => found.has(id)) : [...found];
  // The ids have the prefix's terms: no probe of them again; the user filter's case is the row's.
  const probed = query.search !== undefined ? { search: undefined } : { user: undefined, userIdStart: query.user };
  return { ...query, ...probed, sessionIds };
}

/**
 * How many sessions have a term starting with the prefix, up to `max` + 1: the distinct sessions
 * among its terms, read from its index range in rounds that grow until they hold `max` + 1
 * sessions or all its terms (one round for a prefix in many sessions, whose first terms are
 * enough). Undefined for a prefix whose COUNTED_TERMS terms are not enough (the caller counts
 * along the list). Each round is one statement that reads at most that many index entries.
 */
export async function sessionsWithTerm(db: Executor, campaignId: string, prefix: string, max: number): Promise<number | undefined> {
  for (let read = max + 1; ; read = Math.min(read * 8, COUNTED_TERMS + 1)) {
    // In the index's order, a term's sessions lie side by side (as stored, a session's terms).
    const terms = firstTerms(db, campaignId, prefix, read);
    const row = await db
      .selectFrom(terms.as('t'))
      .select((eb) => [eb.fn.countAll<number | string>().as('terms'), eb.fn.count<number | string>('session_id').distinct().as('sessions')])
      .executeTakeFirstOrThrow();
    const sessions = Number(row.sessions);
    if (sessions > max || Number(row.terms) < read) return Math.min(sessions, max + 1);
    if (read > COUNTED_TERMS) return undefined;
  }
}
