// Who may do what in a workspace: the one permission matrix (issue 37; docs/teams.md shows it).
// Every route of the server declares the permission it needs and asks can() through
// server/teams/access.ts; nothing anywhere compares role names to decide what a caller may do.

/** The roles of a workspace's members, most powerful first. */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an invite or a role change may give (one owner a workspace: it changes hands by transfer). */
export const INVITABLE_ROLES = ['admin', 'member', 'viewer'] as const;

const ALL: readonly Role[] = ROLES;
const MEMBERS: readonly Role[] = ['owner', 'admin', 'member'];
const ADMINS: readonly Role[] = ['owner', 'admin'];
const OWNER: readonly Role[] = ['owner'];

/** Each permission, and the roles that hold it. */
export const PERMISSIONS = {
  /** See the workspace's campaigns and their settings. */
  'campaigns.view': ALL,
  /** Watch: sessions, replays, live views, insights, heatmaps, funnels, people, segments, notes and stars as they are. */
  'sessions.watch': ALL,
  /** Download a recording (the export). */
  'sessions.download': MEMBERS,
  /** Star and unstar sessions. */
  'sessions.star': MEMBERS,
  /** Write notes on replays. */
  'notes.write': MEMBERS,
  /** Make, change and delete saved segments. */
  'segments.write': MEMBERS,
  /** Make, change and delete funnels, and the heatmaps' page patterns. */
  'funnels.write': MEMBERS,
  /** Make, list and revoke share links of replays. */
  'shares.manage': MEMBERS,
  /** Make, change (rules, consent, dates…) and delete campaigns. */
  'campaigns.manage': ADMINS,
  /** Erase a session or a person. */
  'data.erase': ADMINS,
  /** Rename the workspace. */
  'settings.manage': ADMINS,
  /** See who belongs to the workspace. */
  'members.view': ALL,
  /** Invite, re-invite and revoke invites; change members' roles (not to owner); remove members. */
  'members.manage': ADMINS,
  /** Add, test and delete webhooks; rotate their secrets; read and re-send their deliveries (docs/webhooks.md). */
  'webhooks.manage': ADMINS,
  /** Read and export the audit log. */
  'audit.read': ADMINS,
  /** Make, list and revoke the workspace's API keys (docs/api.md, "API keys"). */
  'api_keys.manage': ADMINS,
  /** Hand the workspace to another member (who becomes its owner; the owner becomes an admin). */
  'workspace.transfer': OWNER,
  /** Delete the workspace, with its campaigns and everything recorded under them. */
  'workspace.delete': OWNER,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
export const isPermission = (value: string): value is Permission => Object.hasOwn(PERMISSIONS, value);

/**
 * A workspace's switches, each giving one role one permission the matrix does not: viewers watch
 * only, unless an admin lets them download or share (issue 37). Off by default.
 */
export const WORKSPACE_SWITCHES = {
  viewers_can_download: { role: 'viewer', permission: 'sessions.download' },
  viewers_can_share: { role: 'viewer', permission: 'shares.manage' },
} as const satisfies Record<string, { role: Role; permission: Permission }>;
export type WorkspaceSwitch = keyof typeof WORKSPACE_SWITCHES;
export type Switches = Partial<Record<WorkspaceSwitch, boolean>>;
export const SWITCH_NAMES = Object.keys(WORKSPACE_SWITCHES) as WorkspaceSwitch[];

/** Whether a member of this role holds the permission, in a workspace with these switches on. */
export const can = (role: Role, permission: Permission, switches: Switches = {}): boolean =>
  (PERMISSIONS[permission] as readonly Role[]).includes(role) ||
  SWITCH_NAMES.some((name) => switches[name] === true && WORKSPACE_SWITCHES[name].role === role && WORKSPACE_SWITCHES[name].permission === permission);

/** Every permission the role holds there, in the matrix's order (the PWA hides what is not among them). */
export const permissionsOf = (role: Role, switches: Switches = {}): Permission[] =>
  (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => can(role, permission, switches));

/** The refusal of a caller who lacks the permission (403). */
export const missingPermission = (permission: Permission) => `Missing permission: ${permission}`;

/** The kinds of audit entry the server writes, as the Members screen filters them (docs/teams.md, "The audit log"). */
export const AUDIT_ACTIONS = [
  'workspace.created',
  'workspace.renamed',
  'workspace.settings_changed',
  'workspace.deleted',
  'campaign.created',
  'campaign.edited',
  'campaign.rules_changed',
  'campaign.deleted',
  'share.created',
  'share.revoked',
  'recording.downloaded',
  'session.erased',
  'person.erased',
  'member.invited',
  'invite.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.deleted',
  'webhook.secret_rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
