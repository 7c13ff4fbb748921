// The sessions list's filters and sort as they live in the page's URL (bookmarkable, shareable)
// and as they go to GET /api/v1/streaming/sessions/{campaignId}/. Anything in the URL that is
// not a valid filter is dropped, so a hand-edited link still opens the list.
import { MAX_TIME } from '../../common/limits.js';
import { MAX_FUNNEL_STEPS } from '../../common/funnels.js';
import { DEVICE_KINDS, type DeviceKind } from '../../common/devices.js';
import { MAX_ERROR_MESSAGE } from '../../common/captured.js';
import { MADE_ID } from '../../common/ids.js';
import {
  COUNTRY_CODE,
  DEFAULT_SORT,
  EXACT_FILTERS,
  FILTER_FLAGS,
  FILTER_MAX_CHARS,
  FUNNEL_OUTCOMES,
  KEY_VALUE,
  PEOPLE_FILTERS,
  SCREEN_SIZE,
  SESSION_SORTS,
  TIME_FILTERS,
  UNKNOWN_LIST,
  type FunnelOutcome,
  type SessionSort,
} from '../../common/session-list.js';

export interface SessionFilters {
  from?: number;
  to?: number;
  minDuration?: number;
  maxDuration?: number;
  url?: string;
  country?: string;
  device?: DeviceKind;
  browser?: string;
  /** The entry page's UTM campaign (utm_campaign), source and medium, exact. */
  utm?: string;
  utmSource?: string;
  utmMedium?: string;
  /** Sessions without these values (common/session-list.ts UNKNOWN_VALUES, comma-separated): the insights' "Unknown" rows. */
  unknown?: string;
  hasErrors?: true;
  hasRageClicks?: true;
  hasDeadClicks?: true;
  hasQuickBacks?: true;
  hasExcessiveScrolling?: true;
  /** Any of rage clicks, dead clicks, quick backs or excessive scrolling. */
  hasFrustration?: true;
  hasFailedRequests?: true;
  starred?: true;
  /** The OS with its version, the referrer (DIRECT_REFERRER: none), a page viewed, entered on, left from: exact, as the insights name them. */
  os?: string;
  referrer?: string;
  page?: string;
  entry?: string;
  exit?: string;
  /** The screen's size, `1920x1080`. */
  screen?: string;
  /** People (common/people.ts): the id, an event name, `key:value` of a trait or a tag. */
  user?: string;
  event?: string;
  trait?: string;
  tag?: string;
  /** Sessions that had a JavaScript error with this message. */
  error?: string;
  /** A funnel of the campaign, and the step reached or dropped off after (server/funnels/filter.ts). */
  funnel?: string;
  step?: number;
  outcome?: FunnelOutcome;
  sort?: Exclude<SessionSort, typeof DEFAULT_SORT>;
}

/** A search value as trimmed text of at most `max` characters (the router reads an all-digit value as a number), or undefined. */
export const searchText = (value: unknown, max: number) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim().slice(0, max) || undefined : undefined;

/** Every filter's name, and the sort's. */
export const FILTER_KEYS = [
  ...TIME_FILTERS,
  ...FILTER_FLAGS,
  ...(['url', 'country', 'device', 'browser', 'utm', 'utmSource', 'utmMedium', 'unknown'] as const),
  ...EXACT_FILTERS,
  'screen',
  ...PEOPLE_FILTERS,
  ...(['error', 'funnel', 'step', 'outcome', 'sort'] as const),
] satisfies (keyof SessionFilters)[];

// TanStack Router gives a screen its raw search under what validateSearch returns: a key left out
// would keep its raw, invalid value. So every key is named, undefined when dropped.
const NONE: SessionFilters = Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined]));

/** The filters and sort from a page's search (the sessions page's, the replay page's, the heatmaps'). */
export function validateSessionFilters(search: Record<string, unknown>): SessionFilters {
  const filters: SessionFilters = { ...NONE };
  for (const key of TIME_FILTERS) {
    const n = Number(search[key]);
    if (search[key] !== undefined && search[key] !== '' && Number.isInteger(n) && n >= 0 && n <= MAX_TIME) filters[key] = n;
  }
  for (const key of FILTER_FLAGS) if (search[key] === true || search[key] === 'true') filters[key] = true;
  const url = searchText(search.url, FILTER_MAX_CHARS.url);
  if (url) filters.url = url;
  const country = searchText(search.country, 3);
  if (country && COUNTRY_CODE.test(country)) filters.country = country.toUpperCase();
  if ((DEVICE_KINDS as readonly unknown[]).includes(search.device)) filters.device = search.device as SessionFilters['device'];
  const browser = searchText(search.browser, FILTER_MAX_CHARS.browser);
  if (browser) filters.browser = browser;
  for (const key of ['utm', 'utmSource', 'utmMedium'] as const) {
    const value = searchText(search[key], FILTER_MAX_CHARS[key]);
    if (value) filters[key] = value;
  }
  if (typeof search.unknown === 'string' && UNKNOWN_LIST.test(search.unknown)) filters.unknown = search.unknown;
  for (const key of EXACT_FILTERS) {
    // Exact values (a path or address may end in a space): not trimmed, as the API takes them.
    const value = search[key];
    if ((typeof value === 'string' && value.length <= FILTER_MAX_CHARS[key] && value !== '') || typeof value === 'number') filters[key] = String(value);
  }
  const screen = SCREEN_SIZE.exec(typeof search.screen === 'string' ? search.screen : '');
  if (screen) filters.screen = `${Number(screen[1])}x${Number(screen[2])}`;
  for (const key of PEOPLE_FILTERS) {
    const value = searchText(search[key], FILTER_MAX_CHARS[key]);
    if (value && (key === 'user' || key === 'event' || KEY_VALUE.test(value))) filters[key] = value;
  }
  const error = searchText(search.error, MAX_ERROR_MESSAGE);
  if (error) filters.error = error;
  if (typeof search.funnel === 'string' && MADE_ID.test(search.funnel)) {
    filters.funnel = search.funnel;
    const step = Number(search.step);
    if (Number.isInteger(step) && step >= 1 && step <= MAX_FUNNEL_STEPS) filters.step = step;
    const outcome = FUNNEL_OUTCOMES.find((o) => o === search.outcome);
    if (outcome) filters.outcome = outcome;
  }
  const sort = SESSION_SORTS.find((s) => s === search.sort && s !== DEFAULT_SORT);
  if (sort) filters.sort = sort as SessionFilters['sort'];
  return filters;
}

/** The filters as the API's query parameters. */
export function filterParams(filters: SessionFilters, params = new URLSearchParams()): URLSearchParams {
  for (const [key, value] of Object.entries(filters)) if (value !== undefined) params.set(key, String(value));
  return params;
}

export const hasFilters = (filters: SessionFilters) => Object.values(filters).some((v) => v !== undefined);

/** How many filters narrow the list (the sort does not). */
export const filterCount = (filters: SessionFilters) => Object.entries(filters).filter(([key, value]) => key !== 'sort' && value !== undefined).length;
