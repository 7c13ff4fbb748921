import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { Session, SessionCounts } from '../../common/api-types.js';
import { hadError } from '../insights/errors.js';
import { deleteSessions } from '../recordings/deletion.js';
import { hasStar } from '../stars/repository.js';
import { byEvent, pairFilter } from '../people/filters.js';
import { SESSION_DURATION_MS } from './duration.js';
import { bySearch, hasTerm, sessionsWithTerm, userIdStartsWith, userStartsWith } from './search.js';
import { searchKey } from './search-terms.js';
import { SORT_KEYS, decodeCursor, encodeCursor, hasSessionFilters, type SessionFilters, type SessionQuery } from './query.js';
import { toSession, type SessionRow } from './rows.js';
import { DIRECT_REFERRER, type UnknownValue } from '../../common/session-list.js';

/** The sessions table: every query on it, each taking the database or a transaction. */

const like = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A session with any frustration signal (errors and failed requests are counted apart): the
 * insights' "Sessions with frustration" (server/insights/summary.ts) and the list's hasFrustration.
 */
export const FRUSTRATED = sql<SqlBool>`(rage_click_count > 0 or dead_click_count > 0 or quick_back_count > 0 or excessive_scroll_count > 0)`;

// The page filters read the `pages` column (its paths joined by newlines, as the insights count
// views, entries and exits), case as written on both databases: replace() and substr() compare
// exactly where SQLite's LIKE would not. Lengths are in characters (code points), as both count them.
const chars = (text: string) => [...text].length;
const text = (value: string) => sql`cast(${value} as text)`;
/** Sessions that loaded the page: the path is one of the lines. */
const hasPage = (path: string) => {
  const lines = sql`(${text('\n')} || pages || ${text('\n')})`;
  return sql<SqlBool>`length(replace(${lines}, ${text(`\n${path}\n`)}, '')) < length(${lines})`;
};
/** `pages` starting with / ending with `part`. */
const pagesStart = (part: string) => sql<SqlBool>`substr(pages, 1, ${sql.lit(chars(part))}) = ${text(part)}`;
const pagesEnd = (part: string) =>
  sql<SqlBool>`length(pages) > ${sql.lit(chars(part))} and substr(pages, length(pages) - ${sql.lit(chars(part) - 1)}) = ${text(part)}`;

/** The column each `unknown` value reads (the screen: either of its two). */
const UNKNOWN_COLUMNS = {
  ...{ country: 'country_code', device: 'device', browser: 'browser_name', os: 'os' },
  ...{ utmSource: 'utm_source', utmMedium: 'utm_medium', utm: 'utm_campaign' },
} as const satisfies Record<Exclude<UnknownValue, 'screen'>, keyof SessionRow>;

/**
 * The filters as SQL. The "has" filters are written with a literal 0, as the partial indexes
 * sessions_campaign_with_* are, so both databases can pick those indexes.
 */
export function filtered<Q extends SelectQueryBuilder<Database, 'sessions', object>>(qb: Q, f: SessionFilters): Q {
  let q = qb as SelectQueryBuilder<Database, 'sessions', object>;
  if (f.type !== undefined) q = q.where('is_bot', '=', f.type === 'bot' ? 1 : 0);
  if (f.search) q = q.where((eb) => hasTerm(eb, searchKey(f.search as string)));
  if (f.from !== undefined) q = q.where('started_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('started_at', '<', f.to);
  if (f.minDuration !== undefined) q = q.where(sql<SqlBool>`${SESSION_DURATION_MS} >= ${f.minDuration}`);
  if (f.maxDuration !== undefined) q = q.where(sql<SqlBool>`${SESSION_DURATION_MS} <= ${f.maxDuration}`);
  if (f.url) q = q.where(sql<SqlBool>`lower(${sql.ref('pages')}) like ${like(f.url)} escape '\\'`);
  if (f.country) q = q.where('country_code', '=', f.country.toUpperCase());
  if (f.device) q = q.where('device', '=', f.device);
  if (f.browser) q = q.where('browser_name', '=', f.browser.trim().toLowerCase());
  if (f.utm) q = q.where('utm_campaign', '=', f.utm);
  if (f.utmSource) q = q.where('utm_source', '=', f.utmSource);
  if (f.utmMedium) q = q.where('utm_medium', '=', f.utmMedium);
  for (const value of f.unknown ?? [])
    q =
      value === 'screen'
        ? q.where((eb) => eb.or([eb('screen_width', 'is', null), eb('screen_height', 'is', null)]))
        : q.where(UNKNOWN_COLUMNS[value], 'is', null);
  if (f.os !== undefined) q = q.where('os', '=', f.os);
  if (f.referrer !== undefined) q = f.referrer === DIRECT_REFERRER ? q.where('referrer', 'is', null) : q.where('referrer', '=', f.referrer);
  if (f.screen) q = q.where('screen_width', '=', f.screen[0]).where('screen_height', '=', f.screen[1]);
  if (f.page !== undefined) q = q.where(hasPage(f.page));
  if (f.entry !== undefined) q = q.where((eb) => eb.or([eb('pages', '=', f.entry as string), pagesStart(`${f.entry as string}\n`)]));
  if (f.exit !== undefined) q = q.where((eb) => eb.or([eb('pages', '=', f.exit as string), pagesEnd(`\n${f.exit as string}`)]));
  if (f.hasErrors) q = q.where(sql<SqlBool>`error_count > 0`);
  if (f.hasRageClicks) q = q.where(sql<SqlBool>`rage_click_count > 0`);
  if (f.hasDeadClicks) q = q.where(sql<SqlBool>`dead_click_count > 0`);
  if (f.hasQuickBacks) q = q.where(sql<SqlBool>`quick_back_count > 0`);
  if (f.hasExcessiveScrolling) q = q.where(sql<SqlBool>`excessive_scroll_count > 0`);
  if (f.hasFrustration) q = q.where(FRUSTRATED);
  if (f.hasFailedRequests) q = q.where(sql<SqlBool>`failed_request_count > 0`);
  if (f.starred) q = q.where(hasStar);
  if (f.user !== undefined) q = q.where((eb) => userStartsWith(eb, f.user as string));
  if (f.userIdStart !== undefined) q = q.where(userIdStartsWith(f.userIdStart));
  if (f.event !== undefined)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('session_events as e')
          .select('e.name')
          .whereRef('e.campaign_id', '=', 'sessions.campaign_id')
          .whereRef('e.session_id', '=', 'sessions.id')
          .where('e.name', '=', f.event as string),
      ),
    );
  if (f.trait) q = q.where(pairFilter(f.trait, 'traits'));
  if (f.tag) q = q.where(pairFilter(f.tag, 'tags'));
  if (f.sessionIds) q = q.where('id', 'in', f.sessionIds);
  if (f.error) q = q.where(hadError(f.error));
  if (f.funnelCondition) q = q.where(f.funnelCondition);
  return q as Q;
}

/**
 * One page of a campaign's sessions in the asked order (newest first by default), by keyset on
 * the sort's columns and the id, so every page costs the same however deep the caller pages.
 */
export async function pageSessions(db: Executor, campaignId: string, input: SessionQuery): Promise<{ sessions: Session[]; nextCursor: string | null }> {
  const byPeople = input.event === undefined ? input : await byEvent(db, campaignId, input);
  const query = byPeople.search === undefined && byPeople.user === undefined ? byPeople : await bySearch(db, campaignId, byPeople);
  if (query.sessionIds?.length === 0) return { sessions: [], nextCursor: null };
  const sort = query.sort ?? 'newest';
  const keys = SORT_KEYS[sort];
  const after = query.cursor ? decodeCursor(query.cursor, sort) : null;
  let qb = filtered(db.selectFrom('sessions').selectAll().where('campaign_id', '=', campaignId), query);
  // By a few ids, the rows are read by the primary key and sorted: a unary plus on the sort's keys
  // (in the order and the cursor) keeps SQLite from walking the sort's index over the rest of the
  // campaign instead (PostgreSQL plans the same either way).
  const sortKey = (key: keyof SessionRow) => (query.sessionIds && key !== 'id' ? sql`+${sql.ref(key)}` : sql.ref(key));
  // Row values: (a, b, id) < (x, y, z) is one index range on both databases.
  if (after) qb = qb.where(sql<SqlBool>`(${sql.join(keys.map(sortKey))}) < (${sql.join(after)})`);
  for (const key of keys) qb = qb.orderBy(sortKey(key), 'desc');
  const rows = await qb.limit(query.limit + 1).execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor(keys.map((key) => (key === 'id' ? last.id : Number(last[key])))) : null;
  return { sessions: page.map(toSession), nextCursor };
}

/**
 * How many sessions match the filters, counted up to `max` + 1. A search alone is counted in its
 * terms' index; an event or a search prefix found in few sessions by those sessions' ids (as
 * pageSessions reads them: an event alone, its newest `max` + 1, is their number); otherwise
 * along the list, stopped early.
 */
export async function countMatching(db: Executor, campaignId: string, filters: SessionFilters, max: number): Promise<number> {
  const { search, ...others } = filters;
  if (search && !hasSessionFilters(others)) {
    const found = await sessionsWithTerm(db, campaignId, searchKey(search), max);
    if (found !== undefined) return found;
  }
  const asPage = { ...filters, limit: max };
  const byPeople = filters.event === undefined ? asPage : await byEvent(db, campaignId, asPage);
  const query = byPeople.search === undefined && byPeople.user === undefined ? byPeople : await bySearch(db, campaignId, byPeople, false);
  if (query.sessionIds?.length === 0) return 0;
  // Ids alone are the count: each a session of the campaign (session_events' and session_terms'
  // rows go with their session), once each.
  const { sessionIds, limit, ...rest } = query;
  if (sessionIds && !hasSessionFilters(rest)) return Math.min(sessionIds.length, max + 1);
  // By ids, whole rows, as the page reads them: SQLite (no statistics) would otherwise walk an
  // index that covers the few columns the filters read over the whole campaign, not the ids' keys.
  const rows = db.selectFrom('sessions').where('campaign_id', '=', campaignId);
  const read = query.sessionIds ? rows.selectAll() : rows.select('id');
  const matching = filtered(read, query).limit(max + 1);
  const row = await db
    .selectFrom(matching.as('matching'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Counts over the whole campaign, whatever the page's filters: the row the sessions triggers
 * keep (migration 0026), so a page of 100,000 sessions does not count them again.
 */
export async function countSessions(db: Executor, campaignId: string): Promise<SessionCounts> {
  const row = await db.selectFrom('session_counts').select(['sessions', 'bots']).where('campaign_id', '=', campaignId).executeTakeFirst();
  const [total, bot] = [Number(row?.sessions ?? 0), Number(row?.bots ?? 0)];
  return { total, human: total - bot, bot };
}

export function findSession(db: Executor, campaignId: string, sessionId: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('campaign_id', '=', campaignId).where('id', '=', sessionId).executeTakeFirst();
}

/**
 * Deletes one session and its stored chunks in one transaction (a visitor's erasure request),
 * and frees its place under the campaign's session limit: the admitted-session counter goes
 * down by one in the same transaction, never below 0.
 */
export async function deleteSession(db: Db, campaignId: string, sessionId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => (await deleteSessions(trx, campaignId, [sessionId], 'owner')) === 1);
}
