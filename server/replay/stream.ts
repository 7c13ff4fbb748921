import { Readable } from 'node:stream';
import type { Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { SessionsTable } from '../db/schema.js';
import type { ReplayInit } from '../../common/api-types.js';
import { setImmediate as breathe } from 'node:timers/promises';
import { listChunks, readChunkData, readChunkJson, type ChunkInfo } from '../storage/chunks.js';
import { SPAN_BYTES, type EventSpans } from '../storage/scan-events.js';
import { toSession } from '../sessions/rows.js';
import { recordingNow } from '../../common/recording-now.js';
import { sessionEnded } from '../recordings/rules.js';
import { RECORDING_FORMAT, RECORDING_VERSION } from '../../common/recording-file.js';
import { chunkCost, COMMA, openChunk, PIECE_BYTES } from './chunk-order.js';
import type { RecordingNote } from '../../common/api/notes.js';
import { formatHeld, heldOf } from '../../common/held-batches.js';

/**
 * Decompressed JSON (plus 16 bytes an event for where each lies) that the open chunks of an
 * out-of-order replay may hold at once. A real session has one or two chunks open at a time — a
 * batch sent late overlaps its neighbours — so this holds dozens of full batches; a session built
 * so that every chunk overlaps every other cannot make one retrieval hold more than this.
 */
export const MERGE_BUDGET_BYTES = 16 * 1024 * 1024;

/** The session info a replay opens with: the same fields, mapped once, as the sessions list (its derived facts too). */
export function replayInit(row: Selectable<SessionsTable>): ReplayInit {
  const session = toSession(row);
  const { userAgent, remoteIpAddress, ipMode, language, timezone, webdriver, cookiesEnabled, hasFocus, fullScreenEnabled, isBot, botReason } = session;
  const { durationMs, activeMs, pageCount, clickCount, rageClickCount, deadClickCount, quickBackCount, excessiveScrollCount, errorCount, failedRequestCount } =
    session;
  const facts = {
    durationMs,
    activeMs,
    pageCount,
    clickCount,
    rageClickCount,
    deadClickCount,
    quickBackCount,
    excessiveScrollCount,
    errorCount,
    failedRequestCount,
  };
  const { lastActivityAt, closed } = session;
  return {
    userAgent,
    remoteIpAddress,
    ipMode,
    language,
    timezone,
    webdriver,
    cookiesEnabled,
    hasFocus,
    fullScreenEnabled,
    isBot,
    botReason,
    ...facts,
    lastActivityAt,
    ...(closed ? { closed } : {}),
  };
}

/** Whether the chunks, taken in seq order, never go back in time (the usual case). */
export function chunksInOrder(chunks: ChunkInfo[]): boolean {
  let latest = -Infinity;
  for (const chunk of chunks) {
    if (chunk.event_count === 0) continue;
    if (chunk.first_ts < latest) return false;
    latest = Math.max(latest, chunk.last_ts);
  }
  return true;
}

/** How an out-of-order merge went: tests and the bench read it. */
export interface MergeStats {
  /** The most decompressed JSON its open chunks held at once. */
  peakOpenBytes: number;
  /** Chunks it opened in all. */
  opened: number;
  /** Times the budget was full when a chunk was due, so events went out ahead of that chunk's. */
  overflows: number;
}

export interface ReplayOptions {
  /** The session's chunk list, when the caller has read it already. */
  chunks?: ChunkInfo[];
  /** The merge budget in bytes of decompressed JSON (MERGE_BUDGET_BYTES unless a test says). */
  mergeBudget?: number;
  stats?: MergeStats;
  /** Rewrites each piece of events (whole events, comma-separated) on its way out: a share link's rules. */
  mapPiece?: (piece: Buffer) => Buffer;
}

/** An open chunk in the merge: its stored JSON, where each event lies in it, and the next one due. */
interface Cursor {
  seq: number;
  json: Buffer;
  spans: EventSpans;
  at: number;
  bytes: number;
}

/** Earlier timestamp first; equal times in seq order (within a chunk, a cursor keeps position order). */
const before = (a: Cursor, b: Cursor) => a.spans.times[a.at] < b.spans.times[b.at] || (a.spans.times[a.at] === b.spans.times[b.at] && a.seq < b.seq);

/** A binary min-heap of open chunks, keyed by each one's next event. */
class CursorHeap {
  private items: Cursor[] = [];
  get size(): number {
    return this.items.length;
  }
  top(): Cursor {
    return this.items[0];
  }
  push(cursor: Cursor): void {
    const items = this.items;
    items.push(cursor);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  /** Restores the order after the top cursor moved on (or removes it when it ran out). */
  settleTop(): void {
    const items = this.items;
    if (items[0].at >= items[0].spans.times.length) {
      const last = items.pop()!;
      if (!items.length) return;
      items[0] = last;
    }
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < items.length && before(items[left], items[least])) least = left;
      if (right < items.length && before(items[right], items[least])) least = right;
      if (least === i) return;
      [items[i], items[least]] = [items[least], items[i]];
      i = least;
    }
  }
}

/**
 * The events of chunks that overlap in time, merged into timestamp order with memory bounded by
 * the budget. Chunks are taken by their first timestamp and each is read, inflated and scanned
 * only when the merge reaches that timestamp; the open chunk with the earliest next event gives
 * the next event (its stored bytes, not re-serialised), and a chunk is dropped as soon as it runs
 * out. When a due chunk would take the open chunks past the budget, the merge first goes on with
 * the open chunks alone until enough of them have run out: those events come out ahead of the
 * due chunk's earlier ones. A real session (a few late batches) never comes near the budget and
 * comes out exactly sorted; a session built to overlap everywhere comes out as sorted runs, each
 * bounded by the budget, every event once.
 */
async function* mergedPieces(db: Db, campaignId: string, sessionId: string, chunks: ChunkInfo[], budget: number, stats: MergeStats): AsyncGenerator<Buffer> {
  const due = chunks.filter((c) => c.event_count > 0).sort((a, b) => a.first_ts - b.first_ts || a.seq - b.seq);
  const open = new CursorHeap();
  let openBytes = 0;
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** Hands on the earliest open event; a chunk that ran out frees its bytes. */
  const take = () => {
    const cursor = open.top();
    const { starts, ends } = cursor.spans;
    if (held.length) held.push(COMMA);
    held.push(cursor.json.subarray(starts[cursor.at], ends[cursor.at]));
    heldBytes += ends[cursor.at] - starts[cursor.at];
    if (++cursor.at >= starts.length) openBytes -= cursor.bytes;
    open.settleTop();
  };
  const piece = () => {
    const joined = Buffer.concat(held);
    held = [];
    heldBytes = 0;
    return joined;
  };
  for (let next = 0; next < due.length || open.size;) {
    while (next < due.length && (!open.size || due[next].first_ts <= open.top().spans.times[open.top().at])) {
      const chunk = due[next++];
      const data = await readChunkData(db, campaignId, sessionId, chunk.seq);
      if (!data) continue;
      const size = chunkCost(data, chunk.event_count);
      if (open.size && openBytes + size > budget) stats.overflows++;
      while (open.size && openBytes + size > budget) {
        take();
        if (heldBytes >= PIECE_BYTES) {
          yield piece();
          await breathe();
        }
      }
      const { json, spans } = await openChunk(data, chunk.event_count);
      const bytes = json.byteLength + SPAN_BYTES * spans.times.length;
      openBytes += bytes;
      stats.opened++;
      stats.peakOpenBytes = Math.max(stats.peakOpenBytes, openBytes);
      if (spans.times.length) open.push({ seq: chunk.seq, json, spans, at: 0, bytes });
      else openBytes -= bytes;
      await breathe(); // scanning a chunk held the event loop: let other requests in
    }
    if (open.size) take();
    if (heldBytes >= PIECE_BYTES) {
      yield piece();
      await breathe();
    }
  }
  if (held.length) yield piece();
}

const CLOSE = Buffer.from(']}');

/** The chunks' events in timestamp order, as pieces of comma-separated JSON. */
async function* eventPieces(db: Db, campaignId: string, sessionId: string, chunks: ChunkInfo[], options: ReplayOptions): AsyncGenerator<Buffer> {
  if (chunksInOrder(chunks)) {
    // The usual case: the stored text already is the answer, less each array's brackets.
    for await (const json of readChunkJson(db, campaignId, sessionId, chunks)) if (json.length > 2) yield json.subarray(1, -1);
    return;
  }
  // Chunks overlap in time (a batch sent late): merge them, a few open at a time.
  const stats = options.stats ?? { peakOpenBytes: 0, opened: 0, overflows: 0 };
  yield* mergedPieces(db, campaignId, sessionId, chunks, options.mergeBudget ?? MERGE_BUDGET_BYTES, stats);
}

/** Text is handed on in pieces of about this size: zlib and the socket pay per write. */
const WRITE_BYTES = 256 * 1024;

/** Whether a session will not grow any more: the tracker starts a new one after this long idle. */
export const sessionComplete = (session: Selectable<SessionsTable>, now: number) => sessionEnded(session.last_activity_at, now);

/** Whether the visitor is recording now (common/recording-now.ts). */
export const sessionLive = (session: Selectable<SessionsTable>, now: number) =>
  recordingNow({ lastActivityAt: session.last_activity_at, closed: Boolean(session.closed_reason) }, now);

/** The ReplayResponse {init, complete, live, batches, events} as a stream of JSON text. */
export function replayStream(db: Db, session: Selectable<SessionsTable>, now = Date.now(), options: ReplayOptions = {}): Readable {
  const state = `"complete":${sessionComplete(session, now)},"live":${sessionLive(session, now)}`;
  // The batches carried: the live stream goes on after them, never sending them again.
  const head = (chunks: ChunkInfo[]) =>
    `{"init":${JSON.stringify(replayInit(session))},${state},"batches":${JSON.stringify(formatHeld(heldOf(chunks.map((c) => c.seq))))},"events":[`;
  return objectWithEvents(db, session, head, options);
}

/** A recording file {format, version, campaignId, session, notes?, events} as a stream of JSON text (not yet compressed). */
export function recordingStream(db: Db, session: Selectable<SessionsTable>, options: ReplayOptions & { notes?: RecordingNote[] } = {}): Readable {
  const notes = options.notes?.length ? `"notes":${JSON.stringify(options.notes)},` : '';
  const head = `{"format":"${RECORDING_FORMAT}","version":${RECORDING_VERSION},"campaignId":${JSON.stringify(session.campaign_id)},"session":${JSON.stringify(toSession(session))},${notes}"events":[`;
  return objectWithEvents(db, session, head, options);
}

/** The head of a JSON object whose last field is `"events":[` (it may tell of the chunks its events come from). */
type Head = string | ((chunks: ChunkInfo[]) => string);

/** A JSON object given by its head, streamed with its events. */
export function objectWithEvents(db: Db, session: Selectable<SessionsTable>, head: Head, options: ReplayOptions = {}): Readable {
  return Readable.from(withEvents(db, session, head, options), { objectMode: false });
}

/** The head, then the events in timestamp order, then the array's and object's close. */
async function* withEvents(db: Db, session: Selectable<SessionsTable>, head: Head, options: ReplayOptions): AsyncGenerator<Buffer> {
  const chunks = options.chunks ?? (await listChunks(db, session.campaign_id, session.id));
  // The head goes at once, so the first byte does not wait for the events.
  yield Buffer.from(typeof head === 'string' ? head : head(chunks));
  let held: Buffer[] = [];
  let size = 0;
  let pieces = 0;
  for await (const stored of eventPieces(db, session.campaign_id, session.id, chunks, options)) {
    const piece = options.mapPiece ? options.mapPiece(stored) : stored;
    if (pieces++) held.push(COMMA);
    held.push(piece);
    size += piece.length;
    // The first events go at once too (the player can start on them); then in large pieces.
    if (pieces === 1 || size >= WRITE_BYTES) {
      yield Buffer.concat(held);
      held = [];
      size = 0;
    }
  }
  held.push(CLOSE);
  yield Buffer.concat(held);
}
