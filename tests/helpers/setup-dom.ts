import 'fake-indexeddb/auto';

// jsdom may lack structuredClone, which fake-indexeddb needs.
if (typeof globalThis.structuredClone !== 'function') {
  globalThis.structuredClone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
}
