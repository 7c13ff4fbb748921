// The sessions list's sort orders and device kinds, as plain values: the PWA validates its URL
// with them on the first page load, where the API schemas (and TypeBox with them) must not be
// bundled; common/api/sessions.ts builds the query schema from the same lists.

export const SESSION_SORTS = ['newest', 'longest', 'active', 'errors'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];
export const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
