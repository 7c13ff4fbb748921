import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import type { KeptCampaigns } from '../campaigns/kept-campaigns.js';
import { HttpError, notFound } from '../http/errors.js';
import { deleteCampaignRecordings } from '../recordings/deletion.js';
import { audit } from './audit.js';
import { WORKSPACE_NOT_FOUND, type WorkspaceAccess } from './access.js';
import { personalWorkspace } from './repository.js';

// Deleting a workspace (workspace.delete, the owner's): its campaigns go with everything recorded
// under them, as a campaign's deletion and an account's take them (deleteCampaignRecordings; notes,
// stars, segments and funnels follow their campaign by foreign key), then its members and invites
// (cascade), in one transaction. A personal workspace goes only with its account.

export const PERSONAL_STAYS = 'A personal workspace is deleted only with its account (Account settings)';

/**
 * Deletes the workspace, audited in the owner's personal workspace (the one log they can still
 * read); answers the ids of the members it had, whose open live views end.
 */
export async function deleteWorkspace(db: Db, kept: KeptCampaigns, request: FastifyRequest, access: WorkspaceAccess): Promise<string[]> {
  const personalLog = await personalWorkspace(db, access.userId);
  const members = await db.transaction().execute(async (trx) => {
    const workspace = await trx.selectFrom('workspaces').select(['name', 'personal_of']).where('id', '=', access.workspaceId).executeTakeFirst();
    if (!workspace) throw notFound(WORKSPACE_NOT_FOUND);
    if (workspace.personal_of !== null) throw new HttpError(409, PERSONAL_STAYS);
    const campaigns = await trx.selectFrom('campaigns').select('id').where('workspace_id', '=', access.workspaceId).execute();
    const memberIds = (await trx.selectFrom('workspace_members').select('user_id').where('workspace_id', '=', access.workspaceId).execute()).map(
      (row) => row.user_id,
    );
    await audit(trx, request, personalLog, {
      action: 'workspace.deleted',
      target: `workspace:${access.workspaceId}`,
      before: { name: workspace.name, campaigns: campaigns.length, members: memberIds.length },
    });
    await deleteCampaignRecordings(
      trx,
      campaigns.map((c) => c.id),
    );
    await trx.deleteFrom('campaigns').where('workspace_id', '=', access.workspaceId).execute();
    await trx.deleteFrom('workspace_invites').where('workspace_id', '=', access.workspaceId).execute();
    await trx.deleteFrom('workspace_members').where('workspace_id', '=', access.workspaceId).execute();
    await trx.deleteFrom('workspaces').where('id', '=', access.workspaceId).execute();
    return memberIds;
  });
  kept.forget();
  return members;
}
