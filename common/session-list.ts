// The sessions list's sort orders, types and filter bounds (the device kinds are common/devices.ts's,
// the error cap common/captured.ts's, the funnel id common/ids.ts's), as plain values: the PWA
// validates its URL with them on the first page load, where the API schemas (and TypeBox with them)
// must not be bundled; common/api/sessions.ts builds the query schema from the same lists.

export const SESSION_SORTS = ['newest', 'longest', 'active', 'errors'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];
/** The list's order when none is named. */
export const DEFAULT_SORT = 'newest' satisfies SessionSort;

/** The list's type filter: human users or bot traffic only (none: every session). */
export const SESSION_TYPES = ['human', 'bot'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

/** With a funnel: the sessions that dropped off after the step, or that converted. */
export const FUNNEL_OUTCOMES = ['dropped', 'converted'] as const;
export type FunnelOutcome = (typeof FUNNEL_OUTCOMES)[number];

/** The list's yes/no filters (`=true` in the URL and the query). */
export const FILTER_FLAGS = [
  'hasErrors',
  'hasRageClicks',
  'hasDeadClicks',
  'hasQuickBacks',
  'hasExcessiveScrolling',
  /** Any of rage clicks, dead clicks, quick backs or excessive scrolling (the insights' "Sessions with frustration"). */
  'hasFrustration',
  'hasFailedRequests',
  'starred',
] as const;
/** The list's time filters: epoch ms (from, to) and durations in ms, 0 to MAX_TIME. */
export const TIME_FILTERS = ['from', 'to', 'minDuration', 'maxDuration'] as const;

/** Bounds of the list's query: the server's query schema and the page's URL both hold to them. */
export const FILTER_MAX_CHARS = {
  ...{ cursor: 200, search: 100, url: 200, browser: 50, utm: 100, user: 200, event: 200, trait: 401, tag: 401 },
  ...{ os: 100, referrer: 2000, page: 2000, entry: 2000, exit: 2000, utmSource: 100, utmMedium: 100 },
} as const;
/** The exact filters of the insights' rows (their values as the insights answer them): the OS, the referrer, pages viewed, entered on or left from. */
export const EXACT_FILTERS = ['os', 'referrer', 'page', 'entry', 'exit'] as const;
/**
 * What the `unknown` filter takes (comma-separated): sessions without that value, the insights'
 * "Unknown" rows and UTM rows without a source, medium or campaign ("—").
 */
export const UNKNOWN_VALUES = ['country', 'device', 'browser', 'os', 'screen', 'utmSource', 'utmMedium', 'utm'] as const;
export type UnknownValue = (typeof UNKNOWN_VALUES)[number];
/** `unknown`'s form: names of UNKNOWN_VALUES, comma-separated (tests/integration/insights-links.test.ts checks they agree). */
export const UNKNOWN_LIST = /^(country|device|browser|os|screen|utmSource|utmMedium|utm)(,(country|device|browser|os|screen|utmSource|utmMedium|utm))*$/;

/** The referrer filter's value for sessions with no referrer (a referrer is an address: it never reads so). */
export const DIRECT_REFERRER = '(direct)';
/** The screen filter: width and height in CSS pixels, `1920x1080` (or with the insights' `×`). */
export const SCREEN_SIZE = /^([0-9]{1,6})[x×]([0-9]{1,6})$/;
/** The `trait` and `tag` filters: `key:value`, split at the first colon (common/people.ts splitPair). */
export const KEY_VALUE = /^[^:]+:/;
/** The people filters (common/people.ts): what the page told the recorder. */
export const PEOPLE_FILTERS = ['user', 'event', 'trait', 'tag'] as const;
/** An ISO 3166 country code, any case. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/** A narrowed list counts its matches up to here and says "1000+" past it: counting stops early on a big campaign (a search of 100,000 sessions answers within 20 ms). */
export const MAX_MATCHED_COUNT = 1000;
