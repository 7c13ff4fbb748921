// The sessions list a replay was opened from, carried in the replay page's URL (its filters and
// sort under the list's own names, plus its search as `q` and its type), so Previous and Next
// session follow that list's order and a reload or a shared link keeps them. A replay opened any
// other way follows the campaign's default list: every session, newest first.
import { DEFAULT_SORT, FILTER_MAX_CHARS, SESSION_TYPES, type SessionSort, type SessionType } from '../../common/session-list.js';
import { momentParam } from '../components/replay/moment.js';
import { FILTER_KEYS, searchText, validateSessionFilters, type SessionFilters } from './sessionFilters.js';

export interface SessionListContext extends SessionFilters {
  /** The list's search text. */
  q?: string;
  /** Human users or bot traffic only (the list's type select; none: all sessions). */
  type?: SessionType;
}

/** The list context in a replay page's URL (anything else dropped, as on the list's own page). */
export function validateListContext(search: Record<string, unknown>): SessionListContext {
  const list: SessionListContext = { ...validateSessionFilters(search), q: undefined, type: undefined };
  const q = searchText(search.q, FILTER_MAX_CHARS.search);
  if (q) list.q = q;
  const type = SESSION_TYPES.find((t) => t === search.type);
  if (type) list.type = type;
  return list;
}

/** The replay page's URL: ?t=<seconds>, the moment a shared link points at, and the list it was opened from. */
export type ReplaySearch = SessionListContext & { t?: number };

/** The replay page's validateSearch: anything invalid dropped (and named undefined, so no raw value stays under it). */
export function validateReplaySearch(search: Record<string, unknown>): ReplaySearch {
  return { ...validateListContext(search), t: momentParam(search.t) };
}

/** The sessions page's own URL: the list context with its search, type and sort always named ('', 'all' and 'newest' when none). */
export interface SessionListSearch extends Omit<SessionFilters, 'sort'> {
  q: string;
  type: SessionType | 'all';
  sort: SessionSort;
}

/** What the sessions page's URL leaves out (TanStack Router's stripSearchParams takes them away). */
export const SESSION_LIST_DEFAULTS = { q: '', type: 'all', sort: DEFAULT_SORT } as const satisfies Partial<SessionListSearch>;

/** The sessions page's validateSearch: anything invalid is dropped to its default. */
export function validateSessionListSearch(search: Record<string, unknown>): SessionListSearch {
  const { q = SESSION_LIST_DEFAULTS.q, type = SESSION_LIST_DEFAULTS.type, sort = SESSION_LIST_DEFAULTS.sort, ...filters } = validateListContext(search);
  return { ...filters, q, type, sort };
}

/** The list context of a sessions page showing `filters`, searched for `search`, of `type`. */
export function listContext(filters: SessionFilters, search: string, type: string): SessionListContext {
  return validateListContext({ ...filters, q: search, type });
}

/**
 * The list's query (api/sessions.ts's SessionsQuery, not imported: the service worker reads this
 * module), as the sessions page and a replay opened from it ask for it, so both share one cached answer.
 */
export function listQuery(list: SessionListContext | SessionListSearch): { search: string; type: SessionType | 'all'; filters: SessionFilters } {
  return { search: list.q ?? '', type: list.type ?? 'all', filters: listFilters(list) };
}

/** The list's filters and sort alone (nothing else the URL may hold; the default sort named by none, as the API and the cache keys take it). */
export function listFilters(search: SessionFilters | SessionListSearch): SessionFilters {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, key === 'sort' && search.sort === DEFAULT_SORT ? undefined : search[key]]));
}

export interface Neighbours {
  /** Whether the current session is in the order at all. */
  listed: boolean;
  previous?: string;
  next?: string;
}

/**
 * The sessions before and after `current` in `order`; with `playable`, the nearest ones in it
 * (offline: the sessions saved on this device, the only ones that can open).
 */
export function neighbours(order: readonly string[], current: string, playable?: ReadonlySet<string>): Neighbours {
  const at = order.indexOf(current);
  if (at === -1) return { listed: false };
  const opens = (id: string) => !playable || playable.has(id);
  return { listed: true, previous: order.slice(0, at).findLast(opens), next: order.slice(at + 1).find(opens) };
}
