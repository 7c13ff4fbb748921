import type { RawBuilder, SqlBool } from 'kysely';
import type { SessionSort, UnknownValue } from '../../common/session-list.js';
import { badRequest } from '../http/errors.js';
import type { SessionRow } from './rows.js';

// The sessions list's query as values: its filters, its sort and the cursor of a page. The SQL
// is sessions/repository.ts's; people/filters.ts narrows a query by a person's events first.

export interface SessionFilters {
  /** A prefix of any of the session's search terms (search-terms.ts): who and what, any case. */
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
  /** The entry page's utm_source and utm_medium (exact). */
  utmSource?: string;
  utmMedium?: string;
  /** Sessions without these values. */
  unknown?: UnknownValue[];
  /** The OS with its version (exact). */
  os?: string;
  /** The referrer (exact); common/session-list.ts DIRECT_REFERRER: none. */
  referrer?: string;
  /** The screen's width and height. */
  screen?: [number, number];
  /** A path among the session's pages, its first, its last (exact). */
  page?: string;
  entry?: string;
  exit?: string;
  hasErrors?: boolean;
  hasRageClicks?: boolean;
  hasDeadClicks?: boolean;
  hasQuickBacks?: boolean;
  hasExcessiveScrolling?: boolean;
  hasFrustration?: boolean;
  hasFailedRequests?: boolean;
  starred?: boolean;
  /** A prefix of the id the page identified the visitor by (case as written). */
  user?: string;
  /** The user filter once its terms have given the sessions (sessionIds): the start the row's user id must have. */
  userIdStart?: string;
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

/**
 * Whether any filter narrows the sessions (listFilters gives false for a flag not set, and
 * undefined for an empty text). An empty user or event still narrows: filtered() matches it exactly.
 */
export const hasSessionFilters = (filters: SessionFilters) => Object.values(filters).some((value) => value !== undefined && value !== false);

export interface SessionQuery extends SessionFilters {
  cursor?: string;
  limit: number;
  sort?: SessionSort;
}

/**
 * The keyset of each sort, most significant first, id last: every page is one index range
 * (campaign_id, …keys) however deep the caller pages.
 */
export const SORT_KEYS = {
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
      Array.isArray(value) && value.length === columns.length && value.every((v, i) => (columns[i] === 'id' ? typeof v === 'string' : Number.isSafeInteger(v)));
    if (valid) return value as Cursor;
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('Invalid cursor');
}
