// One stored chunk opened for sending: decoded (storage/chunk-codec.ts), and for the replay merge
// scanned for where each event lies. A chunk's events are in time order already, so they go out
// as the stored bytes. The replay streamer and live use it.
import type { ReplayEvent } from '../../common/api-types.js';
import { decodeChunk, inflatedSize } from '../storage/chunk-codec.js';
import { eventSpans, SPAN_BYTES, type EventSpans } from '../storage/scan-events.js';

export const COMMA = Buffer.from(',');

/**
 * A chunk's events array and where each event lies in it. One the scan cannot read (a key
 * spelt with escapes, say, which JSON.parse reads but a byte scan does not) is parsed and
 * written again.
 */
export async function openChunk(data: Uint8Array, eventCount: number): Promise<{ json: Buffer; spans: EventSpans }> {
  const json = await decodeChunk(data);
  const spans = eventSpans(json, eventCount);
  if (spans) return { json, spans };
  const rewritten = Buffer.from(JSON.stringify(JSON.parse(json.toString('utf8')) as ReplayEvent[]));
  const again = eventSpans(rewritten, eventCount);
  if (!again) throw new Error('A stored chunk holds an event without a numeric timestamp');
  return { json: rewritten, spans: again };
}

/** Memory an open chunk takes, at most: its JSON and where each event lies in it. */
export const chunkCost = (data: Uint8Array, eventCount: number) => inflatedSize(data) + SPAN_BYTES * eventCount;

/**
 * One stored chunk's events as a JSON array in timestamp order, in pieces of about `pieceBytes`:
 * the stored bytes, never parsed (a live stream sends a chunk this way, holding no more than the chunk).
 */
export async function* chunkPieces(data: Uint8Array, pieceBytes = PIECE_BYTES): AsyncGenerator<Buffer> {
  const json = await decodeChunk(data);
  for (let at = 0; at < json.length; at += pieceBytes) yield json.subarray(at, at + pieceBytes);
}

/** Bytes of event JSON per piece the merge hands on. */
export const PIECE_BYTES = 64 * 1024;
