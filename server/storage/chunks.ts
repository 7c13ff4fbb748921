import { gzipSync, gunzip, gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { Db } from '../db/index.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { chunkEvents } from './batch-body.js';

const gunzipAsync = promisify(gunzip);

/**
 * Chunks are read a page at a time, so a long session never sits in memory all at once: up to
 * this many chunks or this many stored bytes a query (a bigger chunk comes alone).
 */
const READ_PAGE_CHUNKS = 500;
/** The first page is short, so the answer starts flowing at once. */
const FIRST_PAGE_CHUNKS = 16;
const READ_PAGE_BYTES = 4 * 1024 * 1024;
/** Smaller chunks are inflated inline: a trip to the thread pool costs more than they do. */
const INLINE_GUNZIP_BYTES = 64 * 1024;

const byTime = (a: ReplayEvent, b: ReplayEvent) => a.timestamp - b.timestamp;

/**
 * A batch of events as a chunk stores them: in timestamp order, as a gzip-compressed JSON array
 * (recordings/seed.ts's appendChunk stores one).
 */
export function packEvents(unsorted: ReplayEvent[]): { firstTs: number; lastTs: number; eventCount: number; chunk: Buffer } {
  const events = unsorted.slice().sort(byTime); // stable: equal times keep their order
  return {
    firstTs: events.length ? events[0].timestamp : 0,
    lastTs: events.length ? events[events.length - 1].timestamp : 0,
    eventCount: events.length,
    chunk: gzipSync(Buffer.from(JSON.stringify(events))),
  };
}

export interface ChunkInfo {
  seq: number;
  first_ts: number;
  last_ts: number;
  event_count: number;
  sorted: number;
  byte_size: number;
}

/** The chunks' metadata in seq order (no event data); only those after `afterSeq` when given. */
export async function listChunks(db: Db, campaignId: string, sessionId: string, afterSeq = -1): Promise<ChunkInfo[]> {
  return db
    .selectFrom('chunks')
    .select(['seq', 'first_ts', 'last_ts', 'event_count', 'sorted', 'byte_size'])
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .execute();
}

/** The decompressed event arrays of a session's chunks, in seq order; `listed` saves a query. */
export async function* readChunks(db: Db, campaignId: string, sessionId: string, listed?: ChunkInfo[]): AsyncGenerator<ReplayEvent[]> {
  for await (const json of readChunkJson(db, campaignId, sessionId, listed)) yield JSON.parse(json.toString('utf8')) as ReplayEvent[];
}

/** Each chunk's JSON array as stored (decompressed UTF-8, not parsed), in seq order; `listed` saves a query. */
export async function* readChunkJson(db: Db, campaignId: string, sessionId: string, listed?: ChunkInfo[]): AsyncGenerator<Buffer> {
  for await (const chunk of readChunkEntries(db, campaignId, sessionId, listed ?? (await listChunks(db, campaignId, sessionId)))) yield chunk.json;
}

/** The listed chunks with their JSON as stored (and whether it is in time order), in seq order, read a bounded page at a time. */
export async function* readChunkEntries(db: Db, campaignId: string, sessionId: string, listed: ChunkInfo[]): AsyncGenerator<{ seq: number; sorted: boolean; json: Buffer }> {
  for (const [from, to] of pages(listed)) {
    const rows = await db
      .selectFrom('chunks')
      .select(['seq', 'sorted', 'data'])
      .where('campaign_id', '=', campaignId)
      .where('session_id', '=', sessionId)
      .where('seq', '>=', from)
      .where('seq', '<=', to)
      .orderBy('seq')
      .execute();
    for (const row of rows) yield { seq: row.seq, sorted: row.sorted === 1, json: await inflateChunk(row.data) };
  }
}

/** One chunk's stored (gzip-compressed) data, or undefined when there is no such chunk. */
export async function readChunkData(db: Db, campaignId: string, sessionId: string, seq: number): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom('chunks')
    .select('data')
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}

/**
 * A stored chunk's JSON length before it is inflated: gzip's trailer records it (modulo 4 GB,
 * far above any chunk), so a reader can judge the cost of inflating a chunk before paying it.
 */
export function inflatedSize(data: Uint8Array): number {
  if (data.byteLength < 18) return 0;
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(data.byteLength - 4, true);
}

/** A chunk's events as JSON array bytes; large chunks are inflated on the thread pool, off the event loop. */
export async function inflateChunk(data: Uint8Array): Promise<Buffer> {
  return chunkEvents(data.byteLength < INLINE_GUNZIP_BYTES ? gunzipSync(data) : await gunzipAsync(data));
}

/** Seq ranges [from, to] of consecutive chunks within the page limits (exported for its tests). */
export function pages(sizes: { seq: number; byte_size: number }[]): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < sizes.length; i++) {
    const most = ranges.length ? READ_PAGE_CHUNKS : FIRST_PAGE_CHUNKS;
    const full = i > start && (i - start >= most || bytes + sizes[i].byte_size > READ_PAGE_BYTES);
    if (full) {
      ranges.push([sizes[start].seq, sizes[i - 1].seq]);
      start = i;
      bytes = 0;
    }
    bytes += sizes[i].byte_size;
  }
  if (sizes.length) ranges.push([sizes[start].seq, sizes[sizes.length - 1].seq]);
  return ranges;
}
