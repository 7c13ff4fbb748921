import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/index.js';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { hasStar } from '../stars/repository.js';
import type { Database } from '../db/schema.js';
import { SESSION_DURATION_MS } from '../sessions/duration.js';
import { endedBefore } from '../recordings/rules.js';
import { deleteSessions } from '../recordings/deletion.js';

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
 * longer keeps: those that started more than its retention_days ago (0 keeps them forever) and
 * ended ones shorter than its min_duration_ms, unless starred. Works in bounded transactions,
 * yielding to the event loop between them, so ingest goes on meanwhile. Answers how many
 * sessions went. The campaign's admitted-session count stays: the limit counts sessions admitted.
 */
export async function sweepExpiredRecordings(db: Db, options: SweepOptions = {}): Promise<number> {
  const now = options.now ?? Date.now();
  const batchSize = options.batchSize ?? SWEEP_BATCH;
  const campaigns = await db
    .selectFrom('campaigns')
    .select(['id', 'retention_days', 'min_duration_ms'])
    .where((eb) => eb.or([eb('retention_days', '>', 0), eb('min_duration_ms', '>', 0)]))
    .execute();
  let deleted = 0;
  const sweep = async (campaignId: string, which: Which) => {
    for (;;) {
      const count = await deleteOldestBatch(db, campaignId, which, batchSize);
      deleted += count;
      if (count > 0) options.onBatch?.(count);
      if (count < batchSize) break;
      await nextTurn();
    }
  };
  for (const campaign of campaigns) {
    const cutoff = now - campaign.retention_days * DAY_MS;
    if (campaign.retention_days > 0) await sweep(campaign.id, (eb) => eb('started_at', '<', cutoff));
    // Sessions shorter than the campaign keeps (by the duration the list shows), once they have
    // ended (no batch can follow): the list may show one until this sweep (every ten minutes),
    // which costs ingest nothing.
    const shortest = campaign.min_duration_ms;
    if (shortest > 0) await sweep(campaign.id, (eb) => eb.and([eb('last_activity_at', '<', endedBefore(now)), eb(SESSION_DURATION_MS, '<', shortest)]));
  }
  return deleted;
}

/** Which of a campaign's sessions a sweep deletes. */
type Which = (eb: ExpressionBuilder<Database, 'sessions'>) => Expression<SqlBool>;

/** One transaction: up to `limit` of the campaign's unstarred sessions that `which` names, oldest first, with their chunks. */
async function deleteOldestBatch(db: Db, campaignId: string, which: Which, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('sessions')
      .select('id')
      .where('campaign_id', '=', campaignId)
      .where((eb) => eb.and([which(eb), eb.not(hasStar(eb))]))
      .orderBy('started_at')
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    await deleteSessions(
      trx,
      campaignId,
      rows.map((row) => row.id),
      'housekeeping',
    );
    return rows.length;
  });
}
