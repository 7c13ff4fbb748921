import { gzipSync, gunzip, gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { Db } from '../db/index.js';
import type { SessionsTable } from '../db/schema.js';
import type { ReplayEvent } from '../../src/api/types.js';

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

export interface NewChunk {
  campaignId: string;
  sessionId: string;
  seq: number;
  events: ReplayEvent[];
}

const byTime = (a: ReplayEvent, b: ReplayEvent) => a.timestamp - b.timestamp;

/**
 * Stores one batch of events, in timestamp order, as a gzip-compressed JSON array. Chunks are
 * append-only: a batch retried with the same (campaign, session, seq) is ignored. Returns whether
 * it was newly stored.
 */
export async function appendChunk(db: Db, chunk: NewChunk): Promise<boolean> {
  const events = chunk.events.slice().sort(byTime); // stable: equal times keep their order
  const first = events.length ? events[0].timestamp : 0;
  const last = events.length ? events[events.length - 1].timestamp : 0;
  const data = gzipSync(Buffer.from(JSON.stringify(events)));
  const result = await db
    .insertInto('chunks')
    .values({
      campaign_id: chunk.campaignId,
      session_id: chunk.sessionId,
      seq: chunk.seq,
      first_ts: first,
      last_ts: last,
      event_count: events.length,
      byte_size: data.byteLength,
      data,
      created_at: Date.now(),
      sorted: 1,
    })
    .onConflict((oc) => oc.columns(['campaign_id', 'session_id', 'seq']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export interface ChunkInfo {
  seq: number;
  first_ts: number;
  last_ts: number;
  event_count: number;
  sorted: number;
  byte_size: number;
}

/** The chunks' metadata in seq order (no event data). */
export async function listChunks(db: Db, campaignId: string, sessionId: string): Promise<ChunkInfo[]> {
  return db
    .selectFrom('chunks')
    .select(['seq', 'first_ts', 'last_ts', 'event_count', 'sorted', 'byte_size'])
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
}

/** The decompressed event arrays of a session's chunks, in seq order; `listed` saves a query. */
export async function* readChunks(db: Db, campaignId: string, sessionId: string, listed?: ChunkInfo[]): AsyncGenerator<ReplayEvent[]> {
  for await (const text of readChunkTexts(db, campaignId, sessionId, listed)) yield JSON.parse(text) as ReplayEvent[];
}

/** Each chunk's JSON array as stored (decompressed, not parsed), in seq order; `listed` saves a query. */
export async function* readChunkTexts(db: Db, campaignId: string, sessionId: string, listed?: ChunkInfo[]): AsyncGenerator<string> {
  const sizes = listed ?? (await listChunks(db, campaignId, sessionId));
  for (const [from, to] of pages(sizes)) {
    const rows = await db
      .selectFrom('chunks')
      .select(['seq', 'data'])
      .where('campaign_id', '=', campaignId)
      .where('session_id', '=', sessionId)
      .where('seq', '>=', from)
      .where('seq', '<=', to)
      .orderBy('seq')
      .execute();
    for (const row of rows) {
      const json = row.data.byteLength < INLINE_GUNZIP_BYTES ? gunzipSync(row.data) : await gunzipAsync(row.data);
      yield json.toString('utf8');
    }
  }
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

export type SessionRow = SessionsTable;

const SESSION_DEFAULTS: Omit<SessionRow, 'campaign_id' | 'id' | 'started_at' | 'last_activity_at'> = {
  remote_ip: null,
  country: null,
  language: null,
  timezone: null,
  hardware_concurrency: null,
  webdriver: 0,
  cookies_enabled: 0,
  has_focus: 0,
  full_screen_enabled: 0,
  user_agent: null,
  screen_width: null,
  screen_height: null,
  referrer: null,
  entry_url: null,
  browser: null,
  os: null,
  device: null,
  is_bot: 0,
  bot_reason: null,
  has_human_input: 0,
  page_count: 0,
  event_count: 0,
  byte_count: 0,
};

export type NewSession = Pick<SessionRow, 'campaign_id' | 'id' | 'started_at'> & Partial<SessionRow>;

/** The full row a new session gets: unspecified fields take their schema defaults. */
export function sessionRow(session: NewSession): SessionRow {
  return { ...SESSION_DEFAULTS, last_activity_at: session.started_at, ...session };
}

/** Inserts a session row (tests use it; ingest may use it or its own admission query). */
export async function insertSession(db: Db, session: NewSession): Promise<void> {
  await db.insertInto('sessions').values(sessionRow(session)).execute();
}
