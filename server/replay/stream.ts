import { Readable } from 'node:stream';
import type { Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { SessionsTable } from '../db/schema.js';
import type { ReplayEvent, ReplayInit } from '../../src/api/types.js';
import { listChunks, readChunks, readChunkTexts, type ChunkInfo } from '../storage/chunks.js';
import { toSession } from '../sessions/queries.js';

/** A session with no activity for this long is finished: its replay will not grow any more. */
export const COMPLETE_AFTER_MS = 30 * 60 * 1000;
/** Events per piece of JSON text when a replay must be sorted as a whole. */
const SLICE = 1000;

/** The session info a replay opens with: the same fields, mapped once, as the sessions list. */
export function replayInit(row: Selectable<SessionsTable>): ReplayInit {
  const { userAgent, remoteIpAddress, language, timezone, webdriver, cookiesEnabled, hasFocus, fullScreenEnabled } = toSession(row);
  return { userAgent, remoteIpAddress, language, timezone, webdriver, cookiesEnabled, hasFocus, fullScreenEnabled };
}

const byTime = (a: ReplayEvent, b: ReplayEvent) => a.timestamp - b.timestamp;

function sortedInPlace(events: ReplayEvent[]): ReplayEvent[] {
  for (let i = 1; i < events.length; i++) {
    if (events[i].timestamp < events[i - 1].timestamp) return events.sort(byTime); // stable
  }
  return events;
}

/** Whether the chunks, taken in seq order, never go back in time (the usual case). */
function chunksInOrder(chunks: ChunkInfo[]): boolean {
  let latest = -Infinity;
  for (const chunk of chunks) {
    if (chunk.event_count === 0) continue;
    if (chunk.first_ts < latest) return false;
    latest = Math.max(latest, chunk.last_ts);
  }
  return true;
}

/** The events in timestamp order, as pieces of comma-separated JSON. */
async function* eventPieces(db: Db, campaignId: string, sessionId: string): AsyncGenerator<string> {
  const chunks = await listChunks(db, campaignId, sessionId);
  const inOrder = chunksInOrder(chunks);
  if (inOrder && chunks.every((chunk) => chunk.sorted === 1)) {
    // The usual case: the stored text already is the answer, less each array's brackets.
    for await (const text of readChunkTexts(db, campaignId, sessionId, chunks)) if (text.length > 2) yield text.slice(1, -1);
    return;
  }
  if (inOrder) {
    for await (const events of readChunks(db, campaignId, sessionId, chunks)) {
      if (events.length) yield sortedInPlace(events).map((e) => JSON.stringify(e)).join(',');
    }
    return;
  }
  // Chunks overlap in time (a batch sent late): only then is the whole replay sorted at once.
  const all: ReplayEvent[] = [];
  for await (const events of readChunks(db, campaignId, sessionId, chunks)) for (const e of events) all.push(e);
  all.sort(byTime);
  for (let i = 0; i < all.length; i += SLICE) yield all.slice(i, i + SLICE).map((e) => JSON.stringify(e)).join(',');
}

/** Text is handed on in pieces of about this size: zlib and the socket pay per write. */
const WRITE_BYTES = 256 * 1024;

/** The ReplayResponse {init, complete, events} as a stream of JSON text. */
export function replayStream(db: Db, session: Selectable<SessionsTable>, now = Date.now()): Readable {
  const complete = now - session.last_activity_at > COMPLETE_AFTER_MS;
  async function* json(): AsyncGenerator<Buffer> {
    // The head goes at once, so the first byte does not wait for the events.
    yield Buffer.from(`{"init":${JSON.stringify(replayInit(session))},"complete":${complete},"events":[`);
    let held: string[] = [];
    let size = 0;
    let first = true;
    for await (const piece of eventPieces(db, session.campaign_id, session.id)) {
      held.push(piece);
      size += piece.length;
      // The first events go at once too (the player can start on them); then in large pieces.
      if (first || size >= WRITE_BYTES) {
        first = false;
        yield Buffer.from(held.join(','));
        held = [''];
        size = 0;
      }
    }
    yield Buffer.from(held.join(',') + ']}');
  }
  return Readable.from(json(), { objectMode: false });
}
