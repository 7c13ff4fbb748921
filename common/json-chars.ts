// The character codes a one-pass JSON scanner looks for (the same as UTF-8 bytes: no byte of a
// multi-byte character equals one of them). Shared by ingest's depth check, the server's chunk
// spans and the PWA's streaming replay reader.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COLON = 0x3a;
export const COMMA = 0x2c;

/** JSON's whitespace: space, line feed, carriage return, tab. */
export const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Where the string whose text starts at `from` ends: its closing quote's index (past the end when none closes it). */
export function stringEnd(json: Uint8Array, from: number): number {
  let i = from;
  while (i < json.length && json[i] !== QUOTE) i += json[i] === BACKSLASH ? 2 : 1;
  return i;
}

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, found in one pass without
 * recursion (before JSON.parse, and before anything that walks the value recursively, sees it).
 */
export function nestsDeeperThan(json: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === QUOTE) {
      i = stringEnd(json, i + 1); // its brackets are text
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
