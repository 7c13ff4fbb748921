import type { Executor } from '../db/executor.js';
import { sessionRow, type NewSession } from '../sessions/rows.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { encodeEvents, type EncodedChunk } from '../storage/chunk-codec.js';
import { chunkRow, type ChunkRow } from './rules.js';

/** Rows written as they are, without ingest's rules: tests, the bench and the screenshots seed recordings with these. */

/** Inserts a session row (unspecified fields take their schema defaults). */
export async function insertSession(db: Executor, session: NewSession): Promise<void> {
  await db.insertInto('sessions').values(sessionRow(session)).execute();
}

/** Inserts a stored chunk; a (campaign, session, seq) already stored is ignored. Whether it went in. */
export async function insertChunk(db: Executor, chunk: ChunkRow): Promise<boolean> {
  const result = await db
    .insertInto('chunks')
    .values(chunk)
    .onConflict((oc) => oc.columns(['campaign_id', 'session_id', 'seq']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export interface NewChunk {
  campaignId: string;
  sessionId: string;
  seq: number;
  events: ReplayEvent[];
}

/** Stores a chunk encoded already (chunk-codec.ts); a (campaign, session, seq) stored already is ignored. Whether it went in. */
export async function insertEncodedChunk(db: Executor, chunk: Omit<NewChunk, 'events'> & EncodedChunk): Promise<boolean> {
  const { campaignId, sessionId, seq, data, eventCount, firstTs, lastTs } = chunk;
  return insertChunk(db, chunkRow(campaignId, { sessionId, seq, eventCount, firstTs, lastTs, chunk: data }, Date.now()));
}

/** Stores one batch of events as a chunk; a (campaign, session, seq) stored already is ignored. Whether it went in. */
export async function appendChunk(db: Executor, chunk: NewChunk): Promise<boolean> {
  return insertEncodedChunk(db, { campaignId: chunk.campaignId, sessionId: chunk.sessionId, seq: chunk.seq, ...encodeEvents(chunk.events) });
}
