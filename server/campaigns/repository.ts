import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/index.js';
import type { Executor, Trx } from '../db/executor.js';
import type { CampaignRow, CampaignsTable } from '../db/schema.js';
import { deleteCampaignRecordings } from '../recordings/deletion.js';

/** The campaigns table: every query on it, each taking the database or a transaction. */

export type { CampaignRow };

/** The campaigns a node keeps in memory (kept-campaigns.ts, which reads them here), told to forget a change. */
interface KeptCopies {
  forget(): void;
}

export function findCampaign(db: Executor, id: string): Promise<CampaignRow | undefined> {
  return db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A campaign with when it last received data: its sessions' newest activity, null before its first. */
export type CampaignWithLastData = CampaignRow & { last_data_at: number | null };

/**
 * The campaigns of the workspaces the user belongs to (of one, when given), newest first, each
 * with when it last received data (one index probe each: migration 0015).
 */
export function listCampaigns(db: Executor, userId: string, workspaceId?: string): Promise<CampaignWithLastData[]> {
  return db
    .selectFrom('campaigns as c')
    .selectAll('c')
    .select((eb) =>
      eb
        .selectFrom('sessions as s')
        .select((s) => s.fn.max('s.last_activity_at').as('m'))
        .whereRef('s.campaign_id', '=', 'c.id')
        .as('last_data_at'),
    )
    .innerJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'c.workspace_id').on('m.user_id', '=', userId))
    .$if(workspaceId !== undefined, (qb) => qb.where('c.workspace_id', '=', workspaceId as string))
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute() as Promise<CampaignWithLastData[]>;
}

/** When the campaign last received data: its sessions' newest activity, null before its first. */
export async function lastDataAt(db: Executor, campaignId: string): Promise<number | null> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.max('last_activity_at').as('m'))
    .where('campaign_id', '=', campaignId)
    .executeTakeFirst();
  return row?.m == null ? null : Number(row.m);
}

export async function insertCampaign(db: Executor, row: Insertable<CampaignsTable>): Promise<void> {
  await db.insertInto('campaigns').values(row).execute();
}

/** Stores an owner's changes to their campaign; sessions already admitted stay whatever the new limit. */
export async function updateCampaign(
  db: Executor,
  kept: KeptCopies,
  campaign: Pick<CampaignRow, 'id' | 'owner_id'>,
  changes: Updateable<CampaignsTable>,
): Promise<void> {
  await db.updateTable('campaigns').set(changes).where('id', '=', campaign.id).where('owner_id', '=', campaign.owner_id).execute();
  kept.forget();
}

/** Everything recorded under the campaign goes with it, or nothing does. */
export async function deleteCampaign(
  db: Db,
  kept: KeptCopies,
  campaign: Pick<CampaignRow, 'id' | 'owner_id'>,
  /** Written in the same transaction (the audit entry). */
  alongside: (trx: Trx) => Promise<void> = async () => undefined,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await alongside(trx);
    await deleteCampaignRecordings(trx, [campaign.id]);
    await trx.deleteFrom('campaigns').where('id', '=', campaign.id).where('owner_id', '=', campaign.owner_id).execute();
  });
  kept.forget();
}
