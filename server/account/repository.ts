import type { KeptCampaigns } from '../campaigns/kept-campaigns.js';
import type { Executor } from '../db/executor.js';
import { deleteCampaignRecordings } from '../recordings/deletion.js';
import { LOCAL_MOUNT } from '../auth/local-provider.js';
import { forgetProviderAccount } from '../auth/oidc-adapter.js';

/**
 * Deleting an account: every row the user owns, in the caller's transaction. Explicit deletes,
 * children first, rather than trusting cascades alone: nothing of the user survives even where
 * a foreign key is missing (share links, the built-in provider's rows have none to users).
 * The workspaces they own go, with their campaigns; campaigns they made in others' workspaces
 * stay there, passed to that workspace's owner; their memberships go with the account.
 */
export async function deleteUserEverything(db: Executor, kept: KeptCampaigns, user: { id: string; subject: string }): Promise<void> {
  const owned = db.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', user.id).where('role', '=', 'owner');
  const campaigns = await db.selectFrom('campaigns').select('id').where('workspace_id', 'in', owned).execute();
  await deleteCampaignRecordings(
    db,
    campaigns.map((c) => c.id),
  );
  await db.deleteFrom('campaigns').where('workspace_id', 'in', owned).execute();
  await db
    .updateTable('campaigns')
    .set((eb) => ({
      owner_id: eb
        .selectFrom('workspace_members as m')
        .select('m.user_id')
        .whereRef('m.workspace_id', '=', 'campaigns.workspace_id')
        .where('m.role', '=', 'owner')
        .limit(1),
    }))
    .where('owner_id', '=', user.id)
    .execute();
  await db.deleteFrom('workspaces').where('id', 'in', owned).execute();
  kept.forget();
  await db.deleteFrom('sign_ins').where('user_id', '=', user.id).execute();
  await db.deleteFrom('refresh_tokens').where('user_id', '=', user.id).execute();
  const local = localSubject(user.subject);
  if (local) {
    await db.deleteFrom('local_accounts').where('subject', '=', local).execute();
    await forgetProviderAccount(db, local);
  }
  await db.deleteFrom('users').where('id', '=', user.id).execute();
}

/** The built-in provider's subject of a user who signs in with it ("…/oidc|subject"), else null. */
function localSubject(subject: string): string | null {
  const bar = subject.lastIndexOf('|');
  return bar > 0 && subject.slice(0, bar).endsWith(LOCAL_MOUNT) ? subject.slice(bar + 1) : null;
}

/**
 * A sign-out (one device or all) also ends the built-in provider's session and grants of the
 * account, so no browser gets back in through the provider without the password.
 */
export async function endProviderSignIns(db: Executor, userId: string): Promise<void> {
  const user = await db.selectFrom('users').select('subject').where('id', '=', userId).executeTakeFirst();
  const local = user && localSubject(user.subject);
  if (local) await forgetProviderAccount(db, local);
}
