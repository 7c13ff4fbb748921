import type { Generated } from 'kysely';

/** The tables of workspaces, their members, invites and audit log (migration 0034). */

export interface WorkspacesTable {
  id: string;
  name: string;
  /** The account whose personal workspace it is (made at its first sign-in); null for one made by hand. */
  personal_of: string | null;
  created_at: number;
  /** Switches (0/1, migration 0035): viewers may download recordings; make, list and revoke share links. */
  viewers_can_download: Generated<number>;
  viewers_can_share: Generated<number>;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  /** 'owner', 'admin', 'member' or 'viewer' (common/teams.ts); one owner a workspace. */
  role: string;
  joined_at: number;
}

/** An invite to a workspace: the token itself is never stored, only its SHA-256. */
export interface WorkspaceInvitesTable {
  id: string;
  workspace_id: string;
  /** The invited address, lower-cased: only an account with it may accept. */
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

/** One audited action: appended, never updated (a trigger refuses it); never a visitor's data. */
export interface AuditLogTable {
  id: string;
  workspace_id: string;
  at: number;
  actor_id: string | null;
  actor_email: string | null;
  /** The address the actor's request came from (http/client-address.ts). */
  ip: string | null;
  action: string;
  /** What was acted on, as "campaign:<id>", "session:<campaign>/<id>", "member:<email>"… */
  target: string;
  /** JSON of the setting before and after (only the fields that changed); null where none. */
  before: string | null;
  after: string | null;
  /** JSON {id, prefix} of the API key the action was taken through (migration 0036); null for a signed-in caller. */
  api_key: string | null;
}

/** A workspace's API key (migration 0036): the key itself is never stored, only its SHA-256. */
export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  /** The account that made it: the key acts with that account's role in the workspace, within its scopes. */
  created_by: string;
  name: string;
  /** The key's start ("td_" and 8 characters), shown in lists. */
  prefix: string;
  hash: string;
  /** Space-separated scopes (server/api-keys/scopes.ts). */
  scopes: string;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export interface TeamTables {
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invites: WorkspaceInvitesTable;
  audit_log: AuditLogTable;
  api_keys: ApiKeysTable;
}
