import { sql } from 'kysely';
import type { Executor } from '../db/executor.js';

/**
 * Deleting recordings, in one place: a session's chunks and row go together (its stars, notes,
 * share links, event counts, visits and heat contributions follow the row by foreign key), in
 * the caller's transaction.
 */

/**
 * Why sessions are deleted. The one rule for the session limit: a deletion someone asked for
 * (the owner's delete, a person's erasure) frees the sessions' places; housekeeping (retention,
 * the shortest session kept) does not, since the limit counts the sessions admitted.
 */
export type SessionDeletion = 'owner' | 'erasure' | 'housekeeping';

const FREES_PLACES: Record<SessionDeletion, boolean> = { owner: true, erasure: true, housekeeping: false };

/** Deletes these sessions of a campaign with their chunks; answers how many rows went. */
export async function deleteSessions(trx: Executor, campaignId: string, sessionIds: readonly string[], why: SessionDeletion): Promise<number> {
  if (!sessionIds.length) return 0;
  await trx.deleteFrom('chunks').where('campaign_id', '=', campaignId).where('session_id', 'in', sessionIds).execute();
  const deleted = await trx.deleteFrom('sessions').where('campaign_id', '=', campaignId).where('id', 'in', sessionIds).executeTakeFirst();
  const count = Number(deleted.numDeletedRows);
  if (count > 0 && FREES_PLACES[why]) await freePlaces(trx, campaignId, count);
  return count;
}

/** The campaign's admitted-session count goes down by `count`, never below 0. */
async function freePlaces(trx: Executor, campaignId: string, count: number): Promise<void> {
  await trx
    .updateTable('campaigns')
    .set({ session_count: sql<number>`case when session_count > ${count} then session_count - ${count} else 0 end` })
    .where('id', '=', campaignId)
    .execute();
}

/**
 * Everything recorded under these campaigns (the campaigns themselves are the caller's to
 * delete next, in the same transaction): share links, chunks, sessions and erasure records.
 * No place is freed: the campaigns go.
 */
export async function deleteCampaignRecordings(trx: Executor, campaignIds: readonly string[]): Promise<void> {
  if (!campaignIds.length) return;
  await trx.deleteFrom('share_links').where('campaign_id', 'in', campaignIds).execute();
  await trx.deleteFrom('chunks').where('campaign_id', 'in', campaignIds).execute();
  await trx.deleteFrom('sessions').where('campaign_id', 'in', campaignIds).execute();
  await trx.deleteFrom('erasures').where('campaign_id', 'in', campaignIds).execute();
}
