// What the tracker captures beside rrweb's own events — errors, console messages, failed
// requests — as rrweb custom events. Shared by the tracker (which masks and trims before
// anything leaves the page), the ingest schema (which bounds them) and the session facts.

export const CAPTURED_TAGS = {
  error: 'tapedeck/error',
  console: 'tapedeck/console',
  request: 'tapedeck/request',
  /** Heatmaps: one per click, where on which element (common/heatmaps.ts). */
  click: 'tapedeck/click',
  /** Heatmaps: how far down a page was seen, sent each time a new tenth of it shows. */
  scroll: 'tapedeck/scroll',
  /** Dead clicks: the page went away (unloaded or hidden) after a click, so the click is judged (common/session-facts.ts). */
  hidden: 'tapedeck/hidden',
} as const;

/** The tag of Tapedeck's own notes in a replay (why recording stopped, what was dropped), from the tracker or the server. */
export const NOTE_TAG = 'tapedeck';

/** Messages and URLs are cut to this many characters; stacks to STACK_MAX. */
export const MESSAGE_MAX = 500;
export const STACK_MAX = 2000;
/** An error's message as errors are grouped by it (insights, the list's error filter): its first 200 characters. */
export const MAX_ERROR_MESSAGE = 200;

// Their payloads (the schema in ingest-batch.ts bounds each):
// - error: {message, source: "file:line" where the page reported it (empty for rejections), stack};
// - console: {level: 'error' | 'warn', message: the call's first argument};
// - request: {method, url without query string and fragment, status (0 when it failed), durationMs}
//   — never bodies or headers;
// - click: {p: page path, s: the element's selector path, t: its short visible text, fx, fy: where
//   in its box (0 to 1), x, y: page position, w: viewport width, h: page height};
// - scroll: {p: page path, d: depth seen (percent, a multiple of 10), w, h, v: 1 on a page view's first};
// - hidden: {}.
// Their text is masked by the one scrubber, common/scrub.ts.
