// The character codes a one-pass JSON scanner looks for (the same as UTF-8 bytes: no byte of a
// multi-byte character equals one of them). Shared by ingest's depth check, the server's chunk
// spans and the PWA's streaming replay reader.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
