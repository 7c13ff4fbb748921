// One stored chunk in timestamp order: opened (inflated and scanned, parsed only when the scan
// cannot read it) and sent as the stored bytes in pieces. The replay streamer and live use it.
import type { ReplayEvent } from '../../common/api-types.js';
import { inflateChunk, inflatedSize } from '../storage/chunks.js';
import { eventSpans, sortedSpans, SPAN_BYTES, type EventSpans } from './spans.js';

export const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');

const byTime = (a: ReplayEvent, b: ReplayEvent) => a.timestamp - b.timestamp;

export function sortedInPlace(events: ReplayEvent[]): ReplayEvent[] {
  for (let i = 1; i < events.length; i++) {
    if (events[i].timestamp < events[i - 1].timestamp) return events.sort(byTime); // stable
  }
  return events;
}

/** Whether the chunks, taken in seq order, never go back in time (the usual case). */
/** A chunk's JSON and its events' spans in timestamp order; a chunk the scan cannot read is parsed and rewritten. */
export async function openChunk(data: Uint8Array, eventCount: number): Promise<{ json: Buffer; spans: EventSpans }> {
  const json = await inflateChunk(data);
  const spans = eventSpans(json, eventCount);
  if (spans) return { json, spans: sortedSpans(spans) };
  const events = sortedInPlace(JSON.parse(json.toString('utf8')) as ReplayEvent[]);
  const rewritten = Buffer.from(JSON.stringify(events));
  const again = eventSpans(rewritten, events.length);
  if (!again) throw new Error('A stored chunk holds an event without a numeric timestamp');
  return { json: rewritten, spans: again };
}

/** Memory a chunk takes while it is sent in time order: its JSON and where each event lies in it. */
export const chunkCost = (data: Uint8Array, eventCount: number) => inflatedSize(data) + SPAN_BYTES * eventCount;

/**
 * One stored chunk's events as a JSON array in timestamp order, in pieces of about `pieceBytes`:
 * the stored bytes, never parsed when the chunk is sorted and only scanned when it is not
 * (a live stream sends a chunk this way, holding no more than the chunk).
 */
export async function* chunkInTimeOrder(data: Uint8Array, eventCount: number, sorted: boolean, pieceBytes = PIECE_BYTES): AsyncGenerator<Buffer> {
  if (sorted) {
    const json = await inflateChunk(data);
    for (let at = 0; at < json.length; at += pieceBytes) yield json.subarray(at, at + pieceBytes);
    return;
  }
  const { json, spans } = await openChunk(data, eventCount);
  let held: Buffer[] = [OPEN];
  let size = 1;
  for (let i = 0; i < spans.starts.length; i++) {
    if (i) held.push(COMMA);
    held.push(json.subarray(spans.starts[i], spans.ends[i]));
    size += spans.ends[i] - spans.starts[i] + 1;
    if (size >= pieceBytes) {
      yield Buffer.concat(held);
      held = [];
      size = 0;
    }
  }
  held.push(CLOSE_ARRAY);
  yield Buffer.concat(held);
}

/** Bytes of event JSON per piece the merge hands on. */
export const PIECE_BYTES = 64 * 1024;
