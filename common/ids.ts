/**
 * The shape of every id the server makes (campaigns, funnels, segments, notes: crypto.randomUUID).
 * Checked before any query: any other id is a 400, never a lookup (PostgreSQL refuses a NUL in text).
 */
export const MADE_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The same, as schemas take it. */
export const MADE_ID_PATTERN = MADE_ID.source;
