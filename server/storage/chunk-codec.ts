import { gunzip, gunzipSync, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { ReplayEvent } from '../../common/api-types.js';
import { OPEN_ARRAY, OPEN_OBJECT } from '../../common/json-chars.js';
import { batchEventsSpan, type EventsSpan } from './scan-batch.js';

// The one format of a stored chunk, and the only code that writes or reads its bytes (ingest's
// packing, appendChunk, the replay streamer, export, share links and live all come here).
//
// A chunk is gzip-compressed UTF-8 JSON holding one batch's events in time order, with no raw
// line break (live sends a chunk as one line). Its JSON is laid out one of two ways, told apart
// by its first byte:
// - an events array, `[{…},…]`: what encodeEvents writes;
// - a batch as received, `{"sessionId":…,"events":[…]}`: a tracker's gzip body kept byte for
//   byte (receivedChunk), because compressing the events again was a third of ingest's time.
// Both decode to the same thing: the events array's bytes (decodeChunk).

const gunzipAsync = promisify(gunzip);

/** Smaller chunks are inflated inline: a trip to the thread pool costs more than they do. */
const INLINE_GUNZIP_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** A stored chunk's bytes are not this format: a bug or a damaged row, never a visitor's doing. */
export class ChunkFormatError extends Error {
  constructor(message: string) {
    super(`Stored chunk: ${message}`);
    this.name = 'ChunkFormatError';
  }
}

/** A chunk ready to store, with what its row says of it. */
export interface EncodedChunk {
  data: Uint8Array;
  eventCount: number;
  firstTs: number;
  lastTs: number;
  /** The events array's length as JSON text: what the session caps count. */
  jsonBytes: number;
}

const byTime = (a: { timestamp: number }, b: { timestamp: number }) => a.timestamp - b.timestamp;

/** The events in time order: the array itself when it already is (the usual case), else a stable-sorted copy. */
export function inTimeOrder<T extends { timestamp: number }>(events: T[]): T[] {
  for (let i = 1; i < events.length; i++) if (events[i].timestamp < events[i - 1].timestamp) return events.slice().sort(byTime);
  return events;
}

/** Writes events as a chunk in the events-array layout, sorted by time (equal times keep their order). */
export function encodeEvents(events: ReplayEvent[]): EncodedChunk {
  const ordered = inTimeOrder(events);
  const json = JSON.stringify(ordered);
  return {
    data: gzipSync(json),
    eventCount: ordered.length,
    firstTs: ordered.length ? ordered[0].timestamp : 0,
    lastTs: ordered.length ? ordered[ordered.length - 1].timestamp : 0,
    jsonBytes: Buffer.byteLength(json),
  };
}

/**
 * Whether a batch body whose events were checked can be stored as it arrived: its JSON is an
 * object with one top-level events array the scan vouches for (`events`, from scanBatch over these
 * bytes) and no raw line break. The caller vouches for the rest (see ingest/pack.ts).
 */
export function storableAsReceived(json: Uint8Array, events: EventsSpan | null): events is EventsSpan {
  return events !== null && json[0] === OPEN_OBJECT && !json.includes(NEWLINE) && !json.includes(RETURN);
}

/**
 * A chunk in the batch-as-received layout: the gzip body itself. `events` is where the events
 * array lies in its JSON (storableAsReceived said yes) and `times` the events in that array.
 */
export function receivedChunk(gzipBody: Uint8Array, events: EventsSpan, times: { timestamp: number }[]): EncodedChunk {
  return {
    data: gzipBody,
    eventCount: times.length,
    firstTs: times.length ? times[0].timestamp : 0,
    lastTs: times.length ? times[times.length - 1].timestamp : 0,
    jsonBytes: events.end - events.start,
  };
}

/**
 * A stored chunk's JSON length before it is inflated: gzip's trailer records it (modulo 4 GB,
 * far above any chunk), so a reader can judge the cost of inflating a chunk before paying it.
 */
export function inflatedSize(data: Uint8Array): number {
  // 18 bytes: the smallest gzip stream, a 10-byte header and an 8-byte trailer.
  if (data.byteLength < 18) return 0;
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(data.byteLength - 4, true);
}

/** The events array of the events-array layout: the JSON itself. */
function eventsOfArray(json: Buffer): Buffer {
  return json;
}

/** The events array of the batch-as-received layout, found by one scan (never parsed). */
function eventsOfReceivedBatch(json: Buffer): Buffer {
  const span = batchEventsSpan(json);
  if (!span) throw new ChunkFormatError('a batch kept as received holds no single events array');
  return json.subarray(span.start, span.end);
}

/** How a chunk's inflated JSON is laid out, by its first byte. */
export function chunkLayout(json: Uint8Array): 'events array' | 'batch as received' {
  if (json[0] === OPEN_ARRAY) return 'events array';
  if (json[0] === OPEN_OBJECT) return 'batch as received';
  throw new ChunkFormatError('its JSON is neither an events array nor a batch');
}

/** A chunk's inflated JSON to its events array's bytes, by its layout. */
export function eventsJson(json: Buffer): Buffer {
  return chunkLayout(json) === 'events array' ? eventsOfArray(json) : eventsOfReceivedBatch(json);
}

async function inflate(data: Uint8Array): Promise<Buffer> {
  try {
    return data.byteLength < INLINE_GUNZIP_BYTES ? gunzipSync(data) : await gunzipAsync(data);
  } catch (error) {
    throw new ChunkFormatError(`not gzip-compressed JSON (${(error as Error).message})`);
  }
}

/** A chunk's events as the bytes of a JSON array in time order; large chunks are inflated on the thread pool, off the event loop. */
export async function decodeChunk(data: Uint8Array): Promise<Buffer> {
  return eventsJson(await inflate(data));
}

/** A chunk's events, parsed. */
export async function decodeEvents(data: Uint8Array): Promise<ReplayEvent[]> {
  const json = await decodeChunk(data);
  try {
    return JSON.parse(json.toString('utf8')) as ReplayEvent[];
  } catch (error) {
    throw new ChunkFormatError(`its events are not valid JSON (${(error as Error).message})`);
  }
}
