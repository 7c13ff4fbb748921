import { gzipSync } from 'node:zlib';
import type { Db } from '../../server/db/index.js';
import { appendChunk, insertEncodedChunk, insertSession } from '../../server/recordings/seed.js';
import { receivedChunk } from '../../server/storage/chunk-codec.js';
import { batchEventsSpan } from '../../server/storage/scan-batch.js';
import type { ReplayEvent } from '../../common/api-types.js';

/**
 * A session stored in the worst order a sender can choose: every chunk spans the whole session,
 * their timestamps interleave (chunk c of n holds start + i·⌈n/2⌉ + c mod ⌈n/2⌉, so two chunks
 * share each time, and every 8th event repeats its predecessor's time), chunks are stored in
 * reverse time order, and the last `asReceived` chunks are stored as ingest keeps a tracker's
 * gzip body, a batch object around the events (the chunk format's second layout). Stored through
 * the server's own appendChunk and insertChunk. Used by the tests and the bench.
 */
export interface WorstSession {
  chunks: number;
  eventsPerChunk: number;
  /** Characters of filler in each event (the event's JSON is about this + 80 bytes). */
  pad: number;
  asReceived?: number;
  start?: number;
  /** Store the same events in time order instead (the bench's baseline). */
  inOrder?: boolean;
}

export interface StoredSession {
  eventCount: number;
  /** Bytes of event JSON stored (what ingest counts into sessions.byte_count). */
  jsonBytes: number;
}

export function worstChunks({ chunks, eventsPerChunk, pad, start = Date.UTC(2026, 0, 1) }: WorstSession): ReplayEvent[][] {
  const step = Math.ceil(chunks / 2);
  const filler = 'x'.repeat(pad);
  return Array.from({ length: chunks }, (_, c) =>
    Array.from({ length: eventsPerChunk }, (_, i) => {
      const at = i % 8 === 7 ? i - 1 : i;
      return { type: 3, data: { source: 1, c, i, filler }, timestamp: start + at * step + (c % step) };
    }),
  );
}

/** Stores the session row and its chunks; returns what was stored. */
export async function storeWorstSession(db: Db, campaignId: string, sessionId: string, shape: WorstSession): Promise<StoredSession> {
  const start = shape.start ?? Date.UTC(2026, 0, 1);
  let batches = worstChunks({ ...shape, start });
  if (shape.inOrder) {
    const all = batches.flat().sort((a, b) => a.timestamp - b.timestamp);
    batches = batches.map((_, c) => all.slice(c * shape.eventsPerChunk, (c + 1) * shape.eventsPerChunk));
  } else {
    batches.reverse();
  }
  const asReceived = shape.inOrder ? 0 : (shape.asReceived ?? 0);
  const eventCount = batches.reduce((n, b) => n + b.length, 0);
  let jsonBytes = 0;
  await insertSession(db, { campaign_id: campaignId, id: sessionId, started_at: start, last_activity_at: Date.now(), event_count: eventCount });
  for (const [seq, events] of batches.entries()) {
    const json = JSON.stringify(events);
    jsonBytes += Buffer.byteLength(json);
    if (seq < batches.length - asReceived) {
      await appendChunk(db, { campaignId, sessionId, seq, events });
      continue;
    }
    const body = Buffer.from(JSON.stringify({ sessionId, seq, events }));
    const span = batchEventsSpan(body)!;
    await insertEncodedChunk(db, { campaignId, sessionId, seq, ...receivedChunk(gzipSync(body), span, events) });
  }
  await db.updateTable('sessions').set({ byte_count: jsonBytes }).where('campaign_id', '=', campaignId).where('id', '=', sessionId).execute();
  return { eventCount, jsonBytes };
}
