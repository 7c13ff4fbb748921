import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE, isSpace, stringEnd } from '../../common/json-chars.js';

// The JSON scanner of an events array (a decoded chunk: storage/chunk-codec.ts), for the replay merge.

/**
 * Where each event of a stored chunk's JSON array lies, and its timestamp, found by one pass over
 * the bytes instead of JSON.parse: a merge then hands on each event's stored bytes as they are,
 * and holds a chunk as its bytes plus 16 bytes an event rather than as parsed objects.
 */
export interface EventSpans {
  /** Byte offsets: event i is json[starts[i], ends[i]). */
  starts: Uint32Array;
  ends: Uint32Array;
  times: Float64Array;
}

/** Bytes the spans add to a chunk's JSON, per event. */
export const SPAN_BYTES = 16;

const TIMESTAMP = Buffer.from('timestamp');
/** Bytes a JSON number may hold. */
const isNumberByte = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * The spans of a JSON array of event objects, or null when the bytes are not such an array with a
 * numeric `timestamp` key in every event (the caller then parses the chunk instead). UTF-8 needs no
 * decoding here: no byte of a multi-byte character equals a quote, backslash or bracket.
 */
export function eventSpans(json: Uint8Array, expected = 0): EventSpans | null {
  let starts = new Uint32Array(Math.max(expected, 16));
  let ends = new Uint32Array(starts.length);
  let times = new Float64Array(starts.length);
  let count = 0;
  let depth = 0;
  let start = 0;
  let time = NaN;
  let i = 0;
  while (i < json.length && isSpace(json[i])) i++;
  if (json[i] !== OPEN_ARRAY) return null;
  for (; i < json.length; i++) {
    const c = json[i];
    if (depth === 1 && c !== OPEN_OBJECT && c !== CLOSE_ARRAY && c !== COMMA && !isSpace(c)) return null; // not an object
    if (c === QUOTE) {
      const from = i + 1;
      i = stringEnd(json, from);
      if (depth !== 2 || i - from !== TIMESTAMP.length || !TIMESTAMP.equals(json.subarray(from, i))) continue;
      let at = i + 1;
      while (at < json.length && isSpace(json[at])) at++;
      if (json[at] !== COLON) continue; // a value, not a key
      at++;
      while (at < json.length && isSpace(json[at])) at++;
      let end = at;
      while (end < json.length && isNumberByte(json[end])) end++;
      time = end > at ? Number(Buffer.from(json.buffer, json.byteOffset + at, end - at).toString('latin1')) : NaN;
      i = end - 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 1) {
        start = i;
        time = NaN;
      }
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 1) {
        if (!Number.isFinite(time)) return null;
        if (count === starts.length) [starts, ends, times] = [grow(starts), grow(ends), grow(times)];
        starts[count] = start;
        ends[count] = i + 1;
        times[count++] = time;
      } else if (depth === 0) {
        for (i++; i < json.length; i++) if (!isSpace(json[i])) return null;
      }
    }
  }
  if (depth !== 0) return null;
  return { starts: starts.subarray(0, count), ends: ends.subarray(0, count), times: times.subarray(0, count) };
}

function grow<T extends Uint32Array | Float64Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
  larger.set(array);
  return larger;
}
