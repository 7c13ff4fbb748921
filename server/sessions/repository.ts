import { sql, type Expression, type Selectable, type SelectQueryBuilder, type SqlBool, type RawBuilder, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/index.js';
import { type SessionFacts } from '../../common/session-facts.js';
import { carriedFacts, readCarried } from '../../common/carried-facts.js';
import type { Executor } from '../db/executor.js';
import type { SessionsTable } from '../db/schema.js';
import type { Session, SessionCounts } from '../../common/api-types.js';
import type { SessionSort } from '../../common/session-list.js';
import { badRequest } from '../http/errors.js';
import { hadError } from '../insights/errors.js';
import { freeSessionPlace } from '../campaigns/repository.js';
import { hasStar } from '../stars/repository.js';
import { readObject, type Scalar } from '../../common/people.js';
import { byEvent, pairFilter } from '../people/filters.js';

/** The sessions table: every query on it, each taking the database or a transaction. */

export type SessionRow = Selectable<SessionsTable>;

export interface SessionFilters {
  search?: string;
  type?: 'human' | 'bot';
  from?: number;
  to?: number;
  minDuration?: number;
  maxDuration?: number;
  url?: string;
  country?: string;
  device?: string;
  browser?: string;
  /** The entry page's utm_campaign (exact). */
  utm?: string;
  hasErrors?: boolean;
  hasRageClicks?: boolean;
  hasDeadClicks?: boolean;
  hasQuickBacks?: boolean;
  hasExcessiveScrolling?: boolean;
  starred?: boolean;
  /** The id the page identified the visitor by (exact). */
  user?: string;
  /** A trait or tag as [key, value] (exact). */
  trait?: [string, string];
  tag?: [string, string];
  /** An event name the session sent (exact). */
  event?: string;
  /** Only these sessions (what a rare event's filter becomes: see pageSessions). */
  sessionIds?: string[];
  /** Sessions that had a JavaScript error with this message (session_errors). */
  error?: string;
  /** A funnel's step or outcome (server/funnels/filter.ts), on the unaliased sessions row. */
  funnelCondition?: RawBuilder<SqlBool>;
}

/** Whether any filter narrows the sessions (listFilters gives false for a flag not set). */
export const hasSessionFilters = (filters: SessionFilters) => Object.values(filters).some((value) => value !== undefined && value !== false && value !== '');

export interface SessionQuery extends SessionFilters {
  cursor?: string;
  limit: number;
  sort?: SessionSort;
}

/**
 * The keyset of each sort, most significant first, id last: every page is one index range
 * (campaign_id, …keys) however deep the caller pages.
 */
const SORT_KEYS = {
  newest: ['started_at', 'id'],
  longest: ['duration_ms', 'id'],
  active: ['active_ms', 'id'],
  errors: ['error_count', 'started_at', 'id'],
} as const satisfies Record<SessionSort, readonly (keyof SessionRow)[]>;

type Cursor = (number | string)[];

/** The cursor is opaque to clients: the last row's sort keys, base64url JSON. */
export function encodeCursor(keys: Cursor): string {
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

export function decodeCursor(text: string, sort: SessionSort = 'newest'): Cursor {
  const columns = SORT_KEYS[sort];
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    const valid =
      Array.isArray(value) &&
      value.length === columns.length &&
      value.every((v, i) => (columns[i] === 'id' ? typeof v === 'string' : Number.isSafeInteger(v)));
    if (valid) return value as Cursor;
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('Invalid cursor');
}

const like = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Case-insensitive substring match on id, IP and language, written the same way for both databases. */
function searchFilter(eb: ExpressionBuilder<Database, 'sessions'>, search: string): Expression<SqlBool> {
  const pattern = like(search);
  const column = (name: 'id' | 'remote_ip' | 'language') => sql<SqlBool>`lower(${sql.ref(name)}) like ${pattern} escape '\\'`;
  return eb.or([column('id'), column('remote_ip'), column('language')]);
}

/**
 * The filters as SQL. The "has" filters are written with a literal 0, as the partial indexes
 * sessions_campaign_with_* are, so both databases can pick those indexes.
 */
export function filtered<Q extends SelectQueryBuilder<Database, 'sessions', object>>(qb: Q, f: SessionFilters): Q {
  let q = qb as SelectQueryBuilder<Database, 'sessions', object>;
  if (f.type !== undefined) q = q.where('is_bot', '=', f.type === 'bot' ? 1 : 0);
  if (f.search) q = q.where((eb) => searchFilter(eb, f.search as string));
  if (f.from !== undefined) q = q.where('started_at', '>=', f.from);
  if (f.to !== undefined) q = q.where('started_at', '<', f.to);
  if (f.minDuration !== undefined) q = q.where('duration_ms', '>=', f.minDuration);
  if (f.maxDuration !== undefined) q = q.where('duration_ms', '<=', f.maxDuration);
  if (f.url) q = q.where(sql<SqlBool>`lower(${sql.ref('pages')}) like ${like(f.url)} escape '\\'`);
  if (f.country) q = q.where('country_code', '=', f.country.toUpperCase());
  if (f.device) q = q.where('device', '=', f.device);
  if (f.browser) q = q.where('browser_name', '=', f.browser.trim().toLowerCase());
  if (f.utm) q = q.where('utm_campaign', '=', f.utm);
  if (f.hasErrors) q = q.where(sql<SqlBool>`error_count > 0`);
  if (f.hasRageClicks) q = q.where(sql<SqlBool>`rage_click_count > 0`);
  if (f.hasDeadClicks) q = q.where(sql<SqlBool>`dead_click_count > 0`);
  if (f.hasQuickBacks) q = q.where(sql<SqlBool>`quick_back_count > 0`);
  if (f.hasExcessiveScrolling) q = q.where(sql<SqlBool>`excessive_scroll_count > 0`);
  if (f.starred) q = q.where(hasStar);
  if (f.user !== undefined) q = q.where('user_id', '=', f.user);
  if (f.event !== undefined) q = q.where((eb) => eb.exists(eb.selectFrom('session_events as e').select('e.name').whereRef('e.campaign_id', '=', 'sessions.campaign_id').whereRef('e.session_id', '=', 'sessions.id').where('e.name', '=', f.event as string)));
  if (f.trait) q = q.where(pairFilter(f.trait, 'traits'));
  if (f.tag) q = q.where(pairFilter(f.tag, 'tags'));
  if (f.sessionIds) q = q.where('id', 'in', f.sessionIds);
  if (f.error) q = q.where(hadError(f.error));
  if (f.funnelCondition) q = q.where(f.funnelCondition);
  return q as Q;
}

export function toSession(row: SessionRow): Session {
  return {
    sessionId: row.id,
    remoteIpAddress: row.remote_ip,
    ipMode: row.ip_mode,
    language: row.language,
    timezone: row.timezone,
    hardwareConcurrency: row.hardware_concurrency,
    webdriver: row.webdriver === 1,
    cookiesEnabled: row.cookies_enabled === 1,
    hasFocus: row.has_focus === 1,
    fullScreenEnabled: row.full_screen_enabled === 1,
    userAgent: row.user_agent,
    country: row.country,
    isBot: row.is_bot === 1,
    botReason: row.bot_reason,
    browser: row.browser,
    os: row.os,
    device: row.device,
    screenWidth: row.screen_width,
    screenHeight: row.screen_height,
    referrer: row.referrer,
    entryUrl: row.entry_url,
    startedAt: row.started_at,
    lastActivityAt: row.last_activity_at,
    // Duration is measured by the server's clock (first to last batch), active time by the events'
    // own: the first batch carries events from before it was sent, so a duration is at least its active time.
    durationMs: Math.max(0, row.duration_ms, row.active_ms),
    pageCount: row.page_count,
    eventCount: row.event_count,
    byteCount: row.byte_count,
    countryCode: row.country_code,
    activeMs: row.active_ms,
    pages: row.pages ? row.pages.split('\n') : [],
    clickCount: row.click_count,
    rageClickCount: row.rage_click_count,
    deadClickCount: row.dead_click_count,
    quickBackCount: row.quick_back_count,
    excessiveScrollCount: row.excessive_scroll_count,
    errorCount: row.error_count,
    failedRequestCount: row.failed_request_count,
    exitUrl: row.exit_url,
    userId: row.user_id,
    traits: readObject<Scalar>(row.traits),
    tags: readObject<string>(row.tags),
    events: readObject<number>(row.events),
  };
}

/**
 * One page of a campaign's sessions in the asked order (newest first by default), by keyset on
 * the sort's columns and the id, so every page costs the same however deep the caller pages.
 */
export async function pageSessions(db: Executor, campaignId: string, input: SessionQuery): Promise<{ sessions: Session[]; nextCursor: string | null }> {
  const query = input.event === undefined ? input : await byEvent(db, campaignId, input);
  if (query.sessionIds?.length === 0) return { sessions: [], nextCursor: null };
  const sort = query.sort ?? 'newest';
  const keys = SORT_KEYS[sort];
  const after = query.cursor ? decodeCursor(query.cursor, sort) : null;
  let qb = filtered(db.selectFrom('sessions').selectAll().where('campaign_id', '=', campaignId), query);
  // Row values: (a, b, id) < (x, y, z) is one index range on both databases.
  if (after) qb = qb.where((eb) => eb(eb.refTuple(...(keys as unknown as [keyof SessionRow, keyof SessionRow])), '<', eb.tuple(...(after as [never, never]))));
  // By a few ids, the rows are read by the primary key and sorted: a unary plus keeps SQLite from
  // walking the sort's index over the whole campaign instead (PostgreSQL plans the same either way).
  for (const key of keys) qb = qb.orderBy(query.sessionIds && key !== 'id' ? sql`+${sql.ref(key)}` : key, 'desc');
  const rows = await qb.limit(query.limit + 1).execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor(keys.map((key) => (key === 'id' ? last.id : Number(last[key])))) : null;
  return { sessions: page.map(toSession), nextCursor };
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

/** The people facts' columns (common/people.ts): the id, and JSON objects or null when empty. */
export const PEOPLE_COLUMNS = ['user_id', 'traits', 'tags', 'events'] as const;

const jsonOrNull = (value: object) => (Object.keys(value).length ? JSON.stringify(value) : null);

/** The columns the session-facts rules keep (common/session-facts.ts). */
const FACT_COLUMNS = ['active_ms', 'click_count', 'rage_click_count', 'dead_click_count', 'quick_back_count', 'excessive_scroll_count', 'error_count', 'failed_request_count', 'pages', 'exit_url', 'facts_carry', ...PEOPLE_COLUMNS] as const;

/**
 * A session's row as a batch is judged against it: the caps' counters, whether it is closed, its
 * facts, and `started_at`, which with `batch_count` tells one state of the row from another (a
 * session erased and started again has a new start).
 */
export const STATE_COLUMNS = ['closed_reason', 'byte_count', 'event_count', 'batch_count', 'started_at', ...FACT_COLUMNS] as const;

/** What the bot verdict is made from, and the verdict. */
export const VERDICT_COLUMNS = ['webdriver', 'user_agent', 'has_human_input', 'is_bot', 'bot_reason'] as const;

/**
 * What the per-session caps count, whether the session was closed at one, and the facts the
 * next batch folds its moments into (read with the same row, so the usual batch's facts go in
 * the UPDATE that counts it).
 */
export function sessionCounters(db: Executor, campaignId: string, sessionId: string) {
  return db
    .selectFrom('sessions')
    .select(STATE_COLUMNS)
    .where('campaign_id', '=', campaignId)
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

export type SessionState = NonNullable<Awaited<ReturnType<typeof sessionCounters>>>;

/** A session's row as a batch counted it: its state and what its bot verdict is made from. */
export type CountedSession = SessionState & Pick<SessionRow, (typeof VERDICT_COLUMNS)[number]>;

// The bot sweep writes sessions: it lives with the other writes (server/recordings).
export { markEndedSessionsWithoutInput } from '../recordings/bot-sweep.js';

export type FactColumns = Pick<SessionRow, (typeof FACT_COLUMNS)[number]>;

/** The row's facts as the rules see them. */
export function factsOfRow(row: FactColumns & { entry_url?: string | null }): SessionFacts {
  return {
    ...readCarried(row.facts_carry),
    activeMs: Number(row.active_ms),
    clickCount: row.click_count,
    rageClickCount: row.rage_click_count,
    deadClickCount: row.dead_click_count,
    quickBackCount: row.quick_back_count,
    excessiveScrollCount: row.excessive_scroll_count,
    errorCount: row.error_count,
    failedRequestCount: row.failed_request_count,
    pages: row.pages ? row.pages.split('\n') : [],
    entryUrl: null,
    exitUrl: row.exit_url,
    userId: row.user_id,
    traits: readObject<Scalar>(row.traits),
    tags: readObject<string>(row.tags),
    events: readObject<number>(row.events),
  };
}

/** The row's columns for a session's facts, as plain values (the entry page is the caller's to merge). */
export function factValues(facts: SessionFacts) {
  return {
    active_ms: facts.activeMs,
    click_count: facts.clickCount,
    rage_click_count: facts.rageClickCount,
    dead_click_count: facts.deadClickCount,
    quick_back_count: facts.quickBackCount,
    excessive_scroll_count: facts.excessiveScrollCount,
    error_count: facts.errorCount,
    failed_request_count: facts.failedRequestCount,
    pages: facts.pages.length ? facts.pages.join('\n') : null,
    exit_url: facts.exitUrl,
    facts_carry: carriedFacts(facts),
    user_id: facts.userId,
    traits: jsonOrNull(facts.traits),
    tags: jsonOrNull(facts.tags),
    events: jsonOrNull(facts.events),
  };
}

/**
 * Deletes one session and its stored chunks in one transaction (a visitor's erasure request),
 * and frees its place under the campaign's session limit: the admitted-session counter goes
 * down by one in the same transaction, never below 0.
 */
export async function deleteSession(db: Db, campaignId: string, sessionId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('chunks').where('campaign_id', '=', campaignId).where('session_id', '=', sessionId).execute();
    const deleted = await trx.deleteFrom('sessions').where('campaign_id', '=', campaignId).where('id', '=', sessionId).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return false;
    await freeSessionPlace(trx, campaignId);
    return true;
  });
}

const SESSION_DEFAULTS: Omit<SessionRow, 'campaign_id' | 'id' | 'started_at' | 'last_activity_at'> = {
  remote_ip: null,
  ip_mode: 'full',
  country: null,
  language: null,
  timezone: null,
  hardware_concurrency: null,
  webdriver: 0,
  cookies_enabled: 0,
  has_focus: 0,
  full_screen_enabled: 0,
  user_agent: null,
  screen_width: null,
  screen_height: null,
  referrer: null,
  entry_url: null,
  browser: null,
  os: null,
  device: null,
  is_bot: 0,
  bot_reason: null,
  has_human_input: 0,
  page_count: 0,
  event_count: 0,
  byte_count: 0,
  batch_count: 0,
  closed_reason: null,
  duration_ms: 0,
  active_ms: 0,
  click_count: 0,
  rage_click_count: 0,
  dead_click_count: 0,
  quick_back_count: 0,
  excessive_scroll_count: 0,
  error_count: 0,
  failed_request_count: 0,
  pages: null,
  exit_url: null,
  facts_carry: null,
  country_code: null,
  browser_name: null,
  user_id: null,
  traits: null,
  tags: null,
  events: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
};

export type NewSession = Pick<SessionRow, 'campaign_id' | 'id' | 'started_at'> & Partial<SessionRow>;

/** The full row a new session gets: unspecified fields take their schema defaults. */
export function sessionRow(session: NewSession): SessionRow {
  const lastActivity = session.last_activity_at ?? session.started_at;
  return { ...SESSION_DEFAULTS, last_activity_at: lastActivity, duration_ms: Math.max(0, lastActivity - session.started_at), ...session };
}
