import { gzipSync, gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Db } from '../db/index.js';
import type { SessionsTable } from '../db/schema.js';
import type { ReplayEvent } from '../../src/api/types.js';

const gunzipAsync = promisify(gunzip);

/** Chunks are read a few at a time so a long session never sits in memory all at once. */
const READ_PAGE = 16;

export interface NewChunk {
  campaignId: string;
  sessionId: string;
  seq: number;
  events: ReplayEvent[];
}

/**
 * Stores one batch of events as a gzip-compressed JSON array. Chunks are append-only: a batch
 * retried with the same (campaign, session, seq) is ignored. Returns whether it was newly stored.
 */
export async function appendChunk(db: Db, chunk: NewChunk): Promise<boolean> {
  let first = Infinity;
  let last = -Infinity;
  for (const event of chunk.events) {
    first = Math.min(first, event.timestamp);
    last = Math.max(last, event.timestamp);
  }
  const data = gzipSync(Buffer.from(JSON.stringify(chunk.events)));
  const result = await db
    .insertInto('chunks')
    .values({
      campaign_id: chunk.campaignId,
      session_id: chunk.sessionId,
      seq: chunk.seq,
      first_ts: chunk.events.length ? first : 0,
      last_ts: chunk.events.length ? last : 0,
      event_count: chunk.events.length,
      byte_size: data.byteLength,
      data,
      created_at: Date.now(),
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
}

/** The chunks' metadata in seq order (no event data). */
export async function listChunks(db: Db, campaignId: string, sessionId: string): Promise<ChunkInfo[]> {
  return db
    .selectFrom('chunks')
    .select(['seq', 'first_ts', 'last_ts', 'event_count'])
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
}

/** The decompressed event arrays of a session's chunks, in seq order. */
export async function* readChunks(db: Db, campaignId: string, sessionId: string): AsyncGenerator<ReplayEvent[]> {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom('chunks')
      .select(['seq', 'data'])
      .where('campaign_id', '=', campaignId)
      .where('session_id', '=', sessionId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(READ_PAGE)
      .execute();
    for (const row of rows) {
      const json = await gunzipAsync(row.data);
      yield JSON.parse(json.toString('utf8')) as ReplayEvent[];
    }
    if (rows.length < READ_PAGE) return;
    after = rows[rows.length - 1].seq;
  }
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
