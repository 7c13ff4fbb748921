// The character codes a one-pass JSON scanner looks for (the same as UTF-8 bytes: no byte of a
// multi-byte character equals one of them). Shared by ingest's depth check, the server's chunk
// spans and the PWA's streaming replay reader.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, found in one pass without
 * recursion (before JSON.parse, and before anything that walks the value recursively, sees it).
 */
export function nestsDeeperThan(json: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === QUOTE) {
      // Skip the string: its brackets are text.
      for (i++; i < json.length && json[i] !== QUOTE; i++) if (json[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
