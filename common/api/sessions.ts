import { Type, type Static } from 'typebox';
import { MadeId, Nullable } from './shared.js';
import { MAX_TIME } from '../limits.js';
import { MAX_FUNNEL_STEPS } from '../funnels.js';
import { DEVICE_KINDS } from '../devices.js';
import { MAX_ERROR_MESSAGE } from '../captured.js';
import { COUNTRY_CODE, FILTER_MAX_CHARS, FUNNEL_OUTCOMES, KEY_VALUE, SCREEN_SIZE, SESSION_SORTS, SESSION_TYPES, UNKNOWN_LIST } from '../session-list.js';

/** Session info the tracker reports with the first batch (the visit's details, screen, referrer, URL). */
export const SessionInfo = Type.Object({
  userAgent: Type.String(),
  language: Type.String(),
  timezone: Type.String(),
  hardwareConcurrency: Type.Number(),
  webdriver: Type.Boolean(),
  cookiesEnabled: Type.Boolean(),
  hasFocus: Type.Boolean(),
  fullScreenEnabled: Type.Boolean(),
  screenWidth: Type.Optional(Type.Number()),
  screenHeight: Type.Optional(Type.Number()),
  referrer: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  /** The entry page's utm_source, utm_medium and utm_campaign (common/utm.ts). */
  utmSource: Type.Optional(Type.String()),
  utmMedium: Type.Optional(Type.String()),
  utmCampaign: Type.Optional(Type.String()),
});
export type SessionInfo = Static<typeof SessionInfo>;

export const Session = Type.Object({
  sessionId: Type.String(),
  remoteIpAddress: Nullable(Type.String()),
  /** What remoteIpAddress holds: 'full', 'truncated' or 'none' (the campaign's setting when stored). Optional for cached sessions. */
  ipMode: Type.Optional(Type.String()),
  language: Nullable(Type.String()),
  timezone: Nullable(Type.String()),
  hardwareConcurrency: Nullable(Type.Number()),
  /** The webdriver flag as the browser reported it; the verdict is isBot. */
  webdriver: Type.Boolean(),
  cookiesEnabled: Type.Boolean(),
  hasFocus: Type.Boolean(),
  fullScreenEnabled: Type.Boolean(),
  userAgent: Nullable(Type.String()),
  /** Computed on the server from an offline IP database. */
  country: Nullable(Type.String()),
  /** The server's verdict: webdriver, crawler user agent, or no human input. */
  isBot: Type.Boolean(),
  botReason: Nullable(Type.String()),
  browser: Nullable(Type.String()),
  os: Nullable(Type.String()),
  device: Nullable(Type.String()),
  screenWidth: Nullable(Type.Number()),
  screenHeight: Nullable(Type.Number()),
  referrer: Nullable(Type.String()),
  entryUrl: Nullable(Type.String()),
  startedAt: Type.Number(),
  lastActivityAt: Type.Number(),
  /** true once closed at a cap: it takes no more batches (common/recording-now.ts); absent otherwise. */
  closed: Type.Optional(Type.Boolean()),
  /** From the session's first batch to its last (the server's clock). */
  durationMs: Type.Number(),
  /** Page loads (one full snapshot each). */
  pageCount: Type.Number(),
  eventCount: Type.Number(),
  byteCount: Type.Number(),
  /** ISO 3166 code of `country` ("US"), for its flag and the country filter. */
  countryCode: Nullable(Type.String()),
  // Derived from the events as batches arrive, by the rules of common/session-facts.ts.
  /** Time with user input, by rrweb's inactivity rule (gaps over 10 s do not count). */
  activeMs: Type.Number(),
  /** Paths of the pages loaded, in order, at most 50. */
  pages: Type.Array(Type.String()),
  clickCount: Type.Number(),
  /** Bursts of 3 or more clicks within 1 s within 30 px. */
  rageClickCount: Type.Number(),
  /** Clicks the page did not answer (no DOM change, navigation, scroll or input) within 1 s. */
  deadClickCount: Type.Number(),
  /** Pages left and loaded again within 5 s (A → B → A); optional for cached sessions and older files. */
  quickBackCount: Type.Optional(Type.Number()),
  /** Bursts of 4 or more scroll direction reversals (each after 200 px) within 10 s. */
  excessiveScrollCount: Type.Optional(Type.Number()),
  /** Uncaught errors, unhandled rejections and console.error calls. */
  errorCount: Type.Number(),
  /** Requests that failed or answered 400 or more. */
  failedRequestCount: Type.Number(),
  /** The path of the last page loaded. */
  exitUrl: Nullable(Type.String()),
  // What the page told with tapedeck.identify, .tag and .event (common/people.ts). Optional for cached sessions and older files.
  /** The id the visitor was identified by (the last one), or null. */
  userId: Type.Optional(Nullable(Type.String())),
  /** Traits of identify calls, merged (at most 50). */
  traits: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))),
  tags: Type.Optional(Type.Record(Type.String(), Type.String())),
  /** Event names with how many times each was sent. */
  events: Type.Optional(Type.Record(Type.String(), Type.Number())),
  /** The owner starred it: kept past the campaign's retention. Optional for cached sessions and older files. */
  starred: Type.Optional(Type.Boolean()),
});
export type Session = Static<typeof Session>;

export const SessionCounts = Type.Object({ total: Type.Number(), human: Type.Number(), bot: Type.Number() });
export type SessionCounts = Static<typeof SessionCounts>;

export const MAX_PAGE = 200;

export const SessionsParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });

/** DELETE /api/v1/streaming/sessions/{campaignId}/{sessionId} */
export const SessionParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }), sessionId: Type.String({ maxLength: 64 }) });

const time = () => Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME }));
const yes = () => Type.Optional(Type.Literal('true'));

/** GET /api/v1/streaming/sessions/{campaignId}/?cursor&limit&search&type&from&to&…&sort */
export const SessionsQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: FILTER_MAX_CHARS.cursor })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
    search: Type.Optional(Type.String({ maxLength: FILTER_MAX_CHARS.search })),
    type: Type.Optional(Type.Union(SESSION_TYPES.map((t) => Type.Literal(t)))),
    /** Started at or after / before (epoch ms). */
    from: time(),
    to: time(),
    /** Duration at least / at most (ms). */
    minDuration: time(),
    maxDuration: time(),
    /** A case-insensitive substring of a page path the session visited. */
    url: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.url })),
    /** ISO 3166 code, any case. */
    country: Type.Optional(Type.String({ maxLength: 2, pattern: COUNTRY_CODE.source })),
    device: Type.Optional(Type.Union(DEVICE_KINDS.map((d) => Type.Literal(d)))),
    /** The browser's name without version ("Chrome", "Firefox"), any case. */
    browser: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.browser })),
    /** The UTM campaign (utm_campaign) of the session's entry page, exact. */
    utm: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.utm })),
    /** The entry page's utm_source and utm_medium, exact (trimmed). */
    utmSource: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.utmSource })),
    utmMedium: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.utmMedium })),
    /** Sessions without these values (common/session-list.ts UNKNOWN_VALUES, comma-separated): `os,screen`. */
    unknown: Type.Optional(Type.String({ maxLength: 100, pattern: UNKNOWN_LIST.source })),
    /** The OS with its version as the insights name it ("Windows 10"), exact. */
    os: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.os })),
    /** The referrer as the insights name it (its address without query), exact; `(direct)`: none. */
    referrer: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.referrer })),
    /** The screen's size, `1920x1080`. */
    screen: Type.Optional(Type.String({ maxLength: 13, pattern: SCREEN_SIZE.source })),
    /** A page path the session loaded, the one it entered on, the one it left from (exact). */
    page: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.page })),
    entry: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.entry })),
    exit: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.exit })),
    hasErrors: yes(),
    hasRageClicks: yes(),
    hasDeadClicks: yes(),
    /** Sessions where the visitor left a page and came back within seconds (common/session-facts.ts). */
    hasQuickBacks: yes(),
    /** Sessions with bursts of scrolling back and forth. */
    hasExcessiveScrolling: yes(),
    /** Sessions with any of rage clicks, dead clicks, quick backs or excessive scrolling. */
    hasFrustration: yes(),
    /** Sessions with a request that failed or answered 400 or more. */
    hasFailedRequests: yes(),
    /** Only the sessions the owner starred. */
    starred: yes(),
    /** The id the page identified the visitor by (tapedeck.identify), exact. */
    user: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.user })),
    /** A name the page sent with tapedeck.event, exact. */
    event: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_MAX_CHARS.event })),
    /** `key:value` of a trait (tapedeck.identify) or a tag (tapedeck.tag), exact. */
    trait: Type.Optional(Type.String({ pattern: KEY_VALUE.source, maxLength: FILTER_MAX_CHARS.trait })),
    tag: Type.Optional(Type.String({ pattern: KEY_VALUE.source, maxLength: FILTER_MAX_CHARS.tag })),
    /** Sessions that had a JavaScript error with this message (its first 200 characters, exactly). */
    error: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_ERROR_MESSAGE })),
    /** A funnel of the campaign: the sessions that entered it (with step/outcome, see server/funnels/filter.ts). */
    funnel: Type.Optional(MadeId()),
    /** The funnel's step (1-based) the sessions reached, or dropped off after with outcome=dropped. */
    step: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FUNNEL_STEPS })),
    outcome: Type.Optional(Type.Union(FUNNEL_OUTCOMES.map((o) => Type.Literal(o)))),
    sort: Type.Optional(Type.Union(SESSION_SORTS.map((s) => Type.Literal(s)))),
  },
  { additionalProperties: false },
);
export type SessionsQuery = Static<typeof SessionsQuery>;

/** PUT/DELETE /api/v1/streaming/sessions/{campaignId}/{sessionId}/star answer the session's star. */
export const StarResponse = Type.Object({ starred: Type.Boolean() });
export type StarResponse = Static<typeof StarResponse>;

/** A campaign's stored recordings against its storage quota (STORAGE_QUOTA_MB). */
export const StorageUse = Type.Object({
  usedBytes: Type.Number(),
  quotaBytes: Type.Number(),
  /** At the quota: new sessions are refused until recordings are deleted or expire. */
  full: Type.Boolean(),
});
export type StorageUse = Static<typeof StorageUse>;

/** One page of a campaign's sessions, newest first. */
export const SessionsResponse = Type.Object({
  sessions: Type.Array(Session),
  /** Cursor for the next page, or null on the last page. */
  nextCursor: Nullable(Type.String()),
  /** Counts over the whole campaign (not just this page). */
  counts: SessionCounts,
  /** How many sessions the search, type and filters match (at most common/session-list.ts MAX_MATCHED_COUNT + 1): on a narrowed list's first page only. */
  matched: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Present when the server has a storage quota (optional for pages cached by older builds). */
  storage: Type.Optional(StorageUse),
});
export type SessionsResponse = Static<typeof SessionsResponse>;
