import { queryOptions } from '@tanstack/react-query';
import { api, type ApiClient } from './client.js';
import type { Role } from '../../common/teams.js';
import type { AuditEntry } from '../../common/api/workspaces.js';

// Workspaces, their members, invites and audit log (issue 37; docs/api.md). Kept small: the
// shell's workspace switcher reads the list.

export interface Workspace {
  id: string;
  name: string;
  role: Role;
  personal: boolean;
  /** What the caller may do here, by permission name: the matrix and the workspace's viewer switches. */
  permissions: string[];
}
export interface Member {
  user_id: string;
  email: string | null;
  name: string;
  role: Role;
}
export interface Invite {
  id: string;
  email: string;
  role: Role;
  created_at: number;
  expires_at: number;
}
export interface CreatedInvite {
  id: string;
  url: string;
  expires_at: number;
}
export interface AuditFilter {
  actor?: string;
  action?: string;
  from?: number;
  to?: number;
}

const id = encodeURIComponent;
const base = (workspaceId: string) => `/api/v1/workspaces/${id(workspaceId)}`;

export const workspacePaths = {
  list: '/api/v1/workspaces',
  members: (workspaceId: string) => `${base(workspaceId)}/members`,
  member: (workspaceId: string, userId: string) => `${base(workspaceId)}/members/${id(userId)}`,
  invites: (workspaceId: string) => `${base(workspaceId)}/invites`,
  invite: (workspaceId: string, inviteId: string) => `${base(workspaceId)}/invites/${id(inviteId)}`,
  accept: (token: string) => `/api/v1/invites/${id(token)}/accept`,
  /** The audit log with its filters; `jsonl` is the export's address. */
  audit: (workspaceId: string, filter: AuditFilter = {}, format?: 'jsonl') => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...filter, format })) if (value !== undefined && value !== '') query.set(key, String(value));
    const search = query.toString();
    return `${base(workspaceId)}/audit${search ? `?${search}` : ''}`;
  },
};

export const workspaceKeys = {
  all: ['workspaces'] as const,
  list: () => [...workspaceKeys.all, 'list'] as const,
  members: (workspaceId: string) => [...workspaceKeys.all, workspaceId, 'members'] as const,
  invites: (workspaceId: string) => [...workspaceKeys.all, workspaceId, 'invites'] as const,
  audit: (workspaceId: string, filter: AuditFilter) => [...workspaceKeys.all, workspaceId, 'audit', filter] as const,
};

const data = async <T>(answer: Promise<{ data: T }>) => (await answer).data;

export const workspacesQueryOptions = (client: ApiClient = api) =>
  queryOptions({ queryKey: workspaceKeys.list(), queryFn: () => data(client.get<{ data: Workspace[] }>(workspacePaths.list)) });

export const membersQueryOptions = (workspaceId: string) =>
  queryOptions({ queryKey: workspaceKeys.members(workspaceId), queryFn: () => data(api.get<{ data: Member[] }>(workspacePaths.members(workspaceId))) });

export const invitesQueryOptions = (workspaceId: string) =>
  queryOptions({ queryKey: workspaceKeys.invites(workspaceId), queryFn: () => data(api.get<{ data: Invite[] }>(workspacePaths.invites(workspaceId))) });

export const auditQueryOptions = (workspaceId: string, filter: AuditFilter) =>
  queryOptions({
    queryKey: workspaceKeys.audit(workspaceId, filter),
    queryFn: () => data(api.get<{ data: AuditEntry[] }>(workspacePaths.audit(workspaceId, filter))),
  });

export const inviteMember = (workspaceId: string, email: string, role: Role) =>
  data(api.post<{ data: CreatedInvite }>(workspacePaths.invites(workspaceId), { email, role }));
export const resendInvite = (workspaceId: string, inviteId: string) =>
  data(api.post<{ data: CreatedInvite }>(`${workspacePaths.invite(workspaceId, inviteId)}/resend`));
export const revokeInvite = (workspaceId: string, inviteId: string) => api.delete(workspacePaths.invite(workspaceId, inviteId));
export const changeRole = (workspaceId: string, userId: string, role: Role) => api.patch(workspacePaths.member(workspaceId, userId), { role });
export const removeMember = (workspaceId: string, userId: string) => api.delete(workspacePaths.member(workspaceId, userId));
export const acceptInvite = (token: string) => data(api.post<{ data: { workspace_id: string; role: Role } }>(workspacePaths.accept(token)));
