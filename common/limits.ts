// Numbers the tracker and the ingest agree on. The server enforces the caps; the tracker cuts
// its batches well under them, so nothing it records is refused for size.

/** A request body as sent (gzip, or JSON where CompressionStream is missing). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/**
 * A body once decompressed. The tracker cuts batches at BATCH_BYTES; only a single event can be
 * larger, and a full snapshot of a very large page (10–15 MB of JSON) still fits.
 */
export const MAX_INFLATED_BYTES = 16 * 1024 * 1024;
/** Nesting of a batch's JSON: a DOM 400 levels deep is 800 levels of snapshot JSON. */
export const MAX_JSON_DEPTH = 1000;
/** Batch numbers run from 0 to this; the one above it closes a session that reached its cap. */
export const MAX_SEQ = 2_147_483_646;
export const MAX_EVENTS_PER_BATCH = 10_000;

/** The tracker cuts batches at this much JSON: under the body cap even without compression. */
export const BATCH_BYTES = 512 * 1024;
/** keepalive fetches may carry 64 KiB in flight; batches cut while the page unloads fit that. */
export const UNLOAD_BATCH_BYTES = 60 * 1024;
/** The tracker's timer: on each tick it may send a batch. */
export const TICK_MS = 1000;
/** A batch leaves every FLUSH_TICKS ticks (5 s), or when FLUSH_EVENTS events are waiting. */
export const FLUSH_TICKS = 5;
/**
 * Ingest answers with this header while someone watches the session live; the tracker then sends
 * on every tick for the next LIVE_FOLLOW_MS (each such answer extends it).
 */
export const LIVE_HEADER = 'x-tapedeck-live';
export const LIVE_FOLLOW_MS = 10_000;
export const FLUSH_EVENTS = 500;
/** Unsent batches kept while ingest is unreachable; past this the oldest go (and say so). */
export const QUEUE_BATCHES = 100;
export const QUEUE_BYTES = 16 * 1024 * 1024;
/**
 * A tab's session continues across page loads until this long without activity; past it the
 * tracker starts a new one, so the server counts the old one as finished (its replay is complete).
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Dead click (common/session-facts.ts): no DOM change, navigation, scroll, input, request or leaving the page within this long after the click. */
export const DEAD_CLICK_MS = 1000;
/**
 * A session is live (recording now: followed live, shown as such) while its last batch came this
 * recently. The tracker sends one every FLUSH_TICKS ticks (5 s) while the visitor does anything,
 * and one as the page is hidden or left: a minute without any means the visitor left or sits idle
 * (a later batch makes the session live again, until SESSION_IDLE_MS ends it for good).
 */
export const LIVE_WINDOW_MS = 60_000;
/** Past this many DOM changes in one second the tracker stops recording the page. */
export const MUTATION_BUDGET = 10_000;
/** Retries before a page that has never reached ingest gives up (CORS refusals look like network errors). */
export const FIRST_CONTACT_TRIES = 4;
/** The largest JavaScript date (epoch ms); anything beyond is not a date. */
export const MAX_TIME = 8_640_000_000_000_000;
