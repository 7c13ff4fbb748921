// The sessions list's sort orders and filter bounds (the device kinds are common/devices.ts's), as plain values: the PWA validates its URL
// with them on the first page load, where the API schemas (and TypeBox with them) must not be
// bundled; common/api/sessions.ts builds the query schema from the same lists.

export const SESSION_SORTS = ['newest', 'longest', 'active', 'errors'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** Bounds of the list's query: the server's query schema and the page's URL both hold to them. */
export const FILTER_MAX_CHARS = { cursor: 200, search: 100, url: 200, browser: 50, utm: 100, user: 200, event: 200, trait: 401, tag: 401 } as const;
/** The `trait` and `tag` filters: `key:value`, split at the first colon (common/people.ts splitPair). */
export const KEY_VALUE = /^[^:]+:/;
/** The people filters (common/people.ts): what the page told the recorder. */
export const PEOPLE_FILTERS = ['user', 'event', 'trait', 'tag'] as const;
/** An ISO 3166 country code, any case. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;
