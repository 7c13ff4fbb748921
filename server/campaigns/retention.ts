import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/index.js';
import { hasStar } from '../stars/repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sessions deleted per transaction: small enough that ingest never waits long for the database. */
export const SWEEP_BATCH = 500;

export interface SweepOptions {
  /** The clock, injectable for tests. */
  now?: number;
  batchSize?: number;
  /** Told each transaction's count of deleted sessions. */
  onBatch?: (deleted: number) => void;
}

/**
 * Deletes the recordings (sessions and their chunks, notes and share links) each campaign no
 * longer keeps: those that started more than its retention_days ago, unless starred; 0 keeps
 * them forever. Works in bounded transactions,
 * yielding to the event loop between them, so ingest goes on meanwhile. Answers how many
 * sessions went. The campaign's admitted-session count stays: the limit counts sessions admitted.
 */
export async function sweepExpiredRecordings(db: Db, options: SweepOptions = {}): Promise<number> {
  const now = options.now ?? Date.now();
  const batchSize = options.batchSize ?? SWEEP_BATCH;
  const campaigns = await db.selectFrom('campaigns').select(['id', 'retention_days']).where('retention_days', '>', 0).execute();
  let deleted = 0;
  for (const campaign of campaigns) {
    const cutoff = now - campaign.retention_days * DAY_MS;
    for (;;) {
      const count = await deleteOldestBatch(db, campaign.id, cutoff, batchSize);
      deleted += count;
      if (count > 0) options.onBatch?.(count);
      if (count < batchSize) break;
      await nextTurn();
    }
  }
  return deleted;
}

/** One transaction: up to `limit` of the campaign's unstarred sessions started before `cutoff`, with their chunks. */
async function deleteOldestBatch(db: Db, campaignId: string, cutoff: number, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('sessions')
      .select('id')
      .where('campaign_id', '=', campaignId)
      .where('started_at', '<', cutoff)
      .where((eb) => eb.not(hasStar(eb)))
      .orderBy('started_at')
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => row.id);
    await trx.deleteFrom('chunks').where('campaign_id', '=', campaignId).where('session_id', 'in', ids).execute();
    await trx.deleteFrom('sessions').where('campaign_id', '=', campaignId).where('id', 'in', ids).execute();
    return rows.length;
  });
}
