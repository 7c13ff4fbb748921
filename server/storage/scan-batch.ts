import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, OPEN_ARRAY, OPEN_OBJECT, QUOTE, isSpace, stringEnd } from '../../common/json-chars.js';

// The JSON scanner of a batch object ({"sessionId", "seq", "info"?, "events": [...]}): ingest's
// depth check before parsing a body, and where its events array lies, without parsing it (a chunk
// kept as received is read this way: storage/chunk-codec.ts).

const EVENTS = Buffer.from('events');

/** Where the events array lies in a batch object's JSON: bytes [start, end), brackets included. */
export interface EventsSpan {
  start: number;
  end: number;
}

/** What one pass over a batch's JSON finds: whether it nests too deep, and where its events lie. */
export interface BatchScan {
  deeperThan: boolean;
  /** Null when there is no single top-level events array the scan can vouch for (see batchEventsSpan). */
  events: EventsSpan | null;
}

/**
 * One pass over a batch's JSON bytes, outside strings: whether it nests deeper than `maxDepth`
 * (found before JSON.parse, which would recurse that deep), and the span of its top-level
 * `events` array. UTF-8 needs no decoding: no byte of a multi-byte character equals a quote,
 * backslash, colon or bracket.
 */
export function scanBatch(json: Uint8Array, maxDepth = Infinity): BatchScan {
  let depth = 0;
  let start = -1;
  let end = -1;
  /** False once the events array cannot be vouched for; the scan goes on for the depth. */
  let valid = true;
  /** The key just read at the top level is "events": its value, an array, comes next. */
  let awaiting = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === QUOTE) {
      const from = i + 1;
      i = stringEnd(json, from);
      if (depth !== 1 || !valid) continue;
      const escaped = json.subarray(from, i).includes(BACKSLASH);
      if (awaiting) valid = false; // events holds text, not an array
      let at = i + 1;
      while (at < json.length && isSpace(json[at])) at++;
      if (json[at] !== COLON) continue;
      // A key spelt with escapes could be "events" to JSON.parse; events twice: the last wins there.
      if (escaped) valid = false;
      else if (i - from === EVENTS.length && EVENTS.equals(json.subarray(from, i))) {
        if (start !== -1) valid = false;
        awaiting = true;
      }
      i = at;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0 && c !== OPEN_OBJECT) valid = false;
      if (depth === 1 && awaiting) {
        if (c === OPEN_ARRAY) start = i;
        else valid = false;
      }
      if (++depth > maxDepth) return { deeperThan: true, events: null };
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 1 && awaiting && start !== -1) {
        end = i + 1;
        awaiting = false;
      }
    } else if (depth === 1 && awaiting && !isSpace(c)) valid = false; // a number or literal
  }
  return { deeperThan: false, events: valid && start !== -1 && end !== -1 ? { start, end } : null };
}

/**
 * The span of the top-level `events` array of a batch object, or null when there is no single
 * such array. A key written with escapes, or `events` twice, gives null too: JSON.parse would
 * read those differently from this scan (the last of equal keys wins, escapes spell the same key),
 * so ingest stores such a body re-serialised instead.
 */
export const batchEventsSpan = (json: Uint8Array): EventsSpan | null => scanBatch(json).events;
