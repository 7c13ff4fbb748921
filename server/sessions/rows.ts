import type { Selectable } from 'kysely';
import { type SessionFacts } from '../../common/session-facts.js';
import { carriedFacts, readCarried } from '../../common/carried-facts.js';
import type { SessionsTable } from '../db/schema.js';
import type { Session } from '../../common/api-types.js';
import { readObject, type Scalar } from '../../common/people.js';
import { sessionDurationMs } from './duration.js';
import { joinedTerms, searchTerms } from './search-terms.js';

/** A sessions row as the API, the ingest and the seeds see it: the mapping both ways, and the column lists. */

export type SessionRow = Selectable<SessionsTable>;

type CounterColumns =
  'click_count' | 'rage_click_count' | 'dead_click_count' | 'quick_back_count' | 'excessive_scroll_count' | 'error_count' | 'failed_request_count';

/** The clicks', frustrations' and errors' counts, as the API and the facts rules name them. */
const countersOf = (row: Pick<SessionRow, CounterColumns>) => ({
  clickCount: row.click_count,
  rageClickCount: row.rage_click_count,
  deadClickCount: row.dead_click_count,
  quickBackCount: row.quick_back_count,
  excessiveScrollCount: row.excessive_scroll_count,
  errorCount: row.error_count,
  failedRequestCount: row.failed_request_count,
});

/** The people facts (common/people.ts) from their columns. */
const peopleOf = (row: Pick<SessionRow, 'user_id' | 'traits' | 'tags' | 'events'>) => ({
  userId: row.user_id,
  traits: readObject<Scalar>(row.traits),
  tags: readObject<string>(row.tags),
  events: readObject<number>(row.events),
});

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
    // Only when closed at a cap (common/recording-now.ts): no longer recording, however recent.
    ...(row.closed_reason ? { closed: true } : {}),
    durationMs: sessionDurationMs(row),
    pageCount: row.page_count,
    eventCount: row.event_count,
    byteCount: row.byte_count,
    countryCode: row.country_code,
    activeMs: row.active_ms,
    pages: row.pages ? row.pages.split('\n') : [],
    ...countersOf(row),
    exitUrl: row.exit_url,
    ...peopleOf(row),
  };
}

/** The people facts' columns (common/people.ts): the id, and JSON objects or null when empty. */
export const PEOPLE_COLUMNS = ['user_id', 'traits', 'tags', 'events'] as const;

const jsonOrNull = (value: object) => (Object.keys(value).length ? JSON.stringify(value) : null);

/** Search terms (search-terms.ts) as their column keeps them: a JSON array, or null for none. */
const termsColumn = (texts: (string | null | undefined)[]) => {
  const terms = searchTerms(texts);
  return terms.length ? JSON.stringify(terms) : null;
};

/**
 * A row's search terms: who, then what. A batch's facts write only theirs (factValues); the
 * database adds them to the session's terms, which keep its id, address and language from its start.
 */
export function rowSearchTerms(row: Pick<SessionRow, 'id' | 'user_id' | 'remote_ip' | 'language' | 'events' | 'pages'>): string | null {
  return termsColumn([row.id, row.user_id, row.remote_ip, row.language, ...Object.keys(readObject(row.events)), ...(row.pages?.split('\n') ?? [])]);
}

/**
 * A row with its search terms from all it holds (a new session's, before it is inserted), and
 * the terms its first batch's facts found (`found`, a terms column: titles and clicked texts too).
 */
export const withSearchTerms = (row: SessionRow, found: string | null = null): SessionRow => {
  const own = rowSearchTerms(row);
  return { ...row, search_terms: found && own ? JSON.stringify(joinedTerms(own, found)) : (own ?? found) };
};

/** The columns the session-facts rules keep (common/session-facts.ts). */
const FACT_COLUMNS = [
  'active_ms',
  'click_count',
  'rage_click_count',
  'dead_click_count',
  'quick_back_count',
  'excessive_scroll_count',
  'error_count',
  'failed_request_count',
  'pages',
  'exit_url',
  'facts_carry',
  ...PEOPLE_COLUMNS,
] as const;

/**
 * A session's row as a batch is judged against it: the caps' counters, whether it is closed, its
 * facts, and `started_at`, which with `batch_count` tells one state of the row from another (a
 * session erased and started again has a new start).
 */
export const STATE_COLUMNS = ['closed_reason', 'byte_count', 'event_count', 'batch_count', 'started_at', ...FACT_COLUMNS] as const;

/** What the bot verdict is made from, and the verdict. */
export const VERDICT_COLUMNS = ['webdriver', 'user_agent', 'has_human_input', 'is_bot', 'bot_reason'] as const;

export type FactColumns = Pick<SessionRow, (typeof FACT_COLUMNS)[number]>;

/** The row's facts as the rules see them. */
export function factsOfRow(row: FactColumns & { entry_url?: string | null }): SessionFacts {
  return {
    ...readCarried(row.facts_carry),
    activeMs: Number(row.active_ms),
    ...countersOf(row),
    pages: row.pages ? row.pages.split('\n') : [],
    searchTexts: [],
    entryUrl: null,
    exitUrl: row.exit_url,
    ...peopleOf(row),
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
    // The batch's titles and clicked texts before the pages, which a long visit has many of.
    search_terms: termsColumn([facts.userId, ...Object.keys(facts.events), ...facts.searchTexts, ...facts.pages]),
  };
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
  search_terms: null,
};

export type NewSession = Pick<SessionRow, 'campaign_id' | 'id' | 'started_at'> & Partial<SessionRow>;

/** The full row a new session gets: unspecified fields take their schema defaults. */
export function sessionRow(session: NewSession): SessionRow {
  const lastActivity = session.last_activity_at ?? session.started_at;
  return withSearchTerms({ ...SESSION_DEFAULTS, last_activity_at: lastActivity, duration_ms: Math.max(0, lastActivity - session.started_at), ...session });
}
