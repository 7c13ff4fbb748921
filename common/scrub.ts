// The one scrubber of what a visitor's page hands us: text that a database column can hold,
// and (for captured text and URLs) visitor data hidden before anything is kept. The tracker
// applies it before anything leaves the page; ingest applies it again, for old or home-made
// senders, so what is stored is clean whoever sent it.

/** NUL characters and lone surrogates: a text column of PostgreSQL refuses them (SQLite takes them). */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as a database column keeps it, the same on both databases: cut to `max`, then the
 * unstorable characters dropped (a pair the cut split among them).
 */
export const storable = (text: string | undefined, max?: number): string => (text ?? '').slice(0, max).replace(UNSTORABLE, '');
