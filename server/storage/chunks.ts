import type { Db } from '../db/index.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { NONE_HELD, type HeldBatches } from '../../common/held-batches.js';
import { decodeChunk, decodeEvents } from './chunk-codec.js';

// The chunks table: rows in, rows out. What a row's data holds is chunk-codec.ts's business.

/**
 * Chunks are read a page at a time, so a long session never sits in memory all at once: up to
 * this many chunks or this many stored bytes a query (a bigger chunk comes alone).
 */
const READ_PAGE_CHUNKS = 500;
/** The first page is short, so the answer starts flowing at once. */
const FIRST_PAGE_CHUNKS = 16;
const READ_PAGE_BYTES = 4 * 1024 * 1024;

export interface ChunkInfo {
  seq: number;
  first_ts: number;
  last_ts: number;
  event_count: number;
  byte_size: number;
}

/** The chunks' metadata in seq order (no event data); only those a client lacks when it says what it holds. */
export async function listChunks(db: Db, campaignId: string, sessionId: string, held: HeldBatches = NONE_HELD): Promise<ChunkInfo[]> {
  return db
    .selectFrom('chunks')
    .select(['seq', 'first_ts', 'last_ts', 'event_count', 'byte_size'])
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .where((eb) => eb.or([eb('seq', '>', held.last), ...held.gaps.map(([from, to]) => eb.between('seq', from, to))]))
    .orderBy('seq')
    .execute();
}

/** The parsed events of a session's chunks, in seq order (tests and tools: replays never parse them). */
export async function* readChunks(db: Db, campaignId: string, sessionId: string): AsyncGenerator<ReplayEvent[]> {
  for await (const data of readChunkRows(db, campaignId, sessionId, await listChunks(db, campaignId, sessionId))) yield decodeEvents(data);
}

/** Each listed chunk's events as JSON array bytes in time order (decoded, not parsed), in seq order. */
export async function* readChunkJson(db: Db, campaignId: string, sessionId: string, listed: ChunkInfo[]): AsyncGenerator<Buffer> {
  for await (const data of readChunkRows(db, campaignId, sessionId, listed)) yield decodeChunk(data);
}

/** The listed chunks' stored data, in seq order, read a bounded page at a time. */
async function* readChunkRows(db: Db, campaignId: string, sessionId: string, listed: ChunkInfo[]): AsyncGenerator<Uint8Array> {
  for (const [from, to] of pages(listed)) {
    const rows = await db
      .selectFrom('chunks')
      .select('data')
      .where('campaign_id', '=', campaignId)
      .where('session_id', '=', sessionId)
      .where('seq', '>=', from)
      .where('seq', '<=', to)
      .orderBy('seq')
      .execute();
    for (const row of rows) yield row.data;
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
