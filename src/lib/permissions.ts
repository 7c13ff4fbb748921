import { useQuery } from '@tanstack/react-query';
import type { Permission, Role } from '../../common/teams.js';
import { campaignsQueryOptions } from '../api/campaigns.js';
import { workspacesQueryOptions, type Workspace } from '../api/workspaces.js';

// What the signed-in user may do, by permission name, as the server answers it for each workspace
// (the matrix in common/teams.ts with the workspace's viewer switches). Until the role is known
// (loading, offline without a cached list, a campaign cached by an older build) every control
// shows: the server refuses what the role does not allow anyway.

const ROLE_PLURAL: Record<Role, string> = { owner: 'Owners', admin: 'Admins', member: 'Members', viewer: 'Viewers' };

/** What a control of each permission does, as the reason a role cannot use it says it. */
const ACTIONS: Partial<Record<Permission, string>> = {
  'campaigns.manage': 'edit campaigns or their rules',
  'data.erase': 'erase sessions or people',
  'shares.manage': 'share replays',
  'sessions.download': 'download recordings',
  'members.manage': 'invite or manage members',
  'audit.read': 'read the audit log',
  'api_keys.manage': 'make or revoke API keys',
  'webhooks.manage': 'manage webhooks',
  'workspace.transfer': 'transfer the workspace',
};

/**
 * The reason the workspace's role lacks a permission ("Viewers can't share replays"), or null when
 * it holds it or the workspace is unknown (a list cached offline by a build before `permissions`).
 */
export function refusal(workspace: Workspace | undefined, permission: Permission): string | null {
  if (!workspace?.permissions || workspace.permissions.includes(permission)) return null;
  return `${ROLE_PLURAL[workspace.role]} can't ${ACTIONS[permission] ?? permission}`;
}

export interface Permissions {
  role: Role | undefined;
  /** Null when allowed; the reason when not. */
  refusal: (permission: Permission) => string | null;
}

export const permissionsOf = (workspace: Workspace | undefined): Permissions => ({
  role: workspace?.role,
  refusal: (permission) => refusal(workspace, permission),
});

/** The workspace the URL names, else the only or personal one (undefined until the list is known). */
export function useCurrentWorkspace(workspaceId: string | undefined): { current: Workspace | undefined; count: number } {
  const { data = [] } = useQuery(workspacesQueryOptions());
  const current = workspaceId ? data.find((w) => w.id === workspaceId) : (data.find((w) => w.personal) ?? data[0]);
  return { current, count: data.length };
}

/** The user's workspace by id (undefined until known). */
function useWorkspace(workspaceId: string | undefined): Workspace | undefined {
  const { data } = useQuery({ ...workspacesQueryOptions(), enabled: Boolean(workspaceId) });
  return data?.find((workspace) => workspace.id === workspaceId);
}

export function useWorkspacePermissions(workspaceId: string | undefined): Permissions {
  return permissionsOf(useWorkspace(workspaceId));
}

/** The user's permissions in the workspace the campaign belongs to. */
export function useCampaignPermissions(campaignId: string): Permissions {
  const { data: workspaceId } = useQuery({ ...campaignsQueryOptions(), select: (campaigns) => campaigns.find((c) => c.id === campaignId)?.workspace_id });
  return useWorkspacePermissions(workspaceId);
}
