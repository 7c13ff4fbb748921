import { Type, type Static } from 'typebox';
import { MadeId } from './shared.js';

// The API of workspaces, members, invites and the audit log (issue 37; docs/api.md).

export const WORKSPACE_NAME_MAX = 100;
export const EMAIL_MAX = 254;

// As common/teams.ts ROLES and INVITABLE_ROLES (tests/unit/server/teams.test.ts holds them equal).
const invitableRole = Type.Union([Type.Literal('viewer'), Type.Literal('member'), Type.Literal('admin')]);
const role = Type.Union([Type.Literal('viewer'), Type.Literal('member'), Type.Literal('admin'), Type.Literal('owner')]);

export const WorkspaceList = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      role,
      personal: Type.Boolean(),
      /** The workspace's switches (common/teams.ts WORKSPACE_SWITCHES): viewers may download; may make, list and revoke share links. */
      viewers_can_download: Type.Boolean(),
      viewers_can_share: Type.Boolean(),
      /** Every permission the caller holds there (common/teams.ts), so the app hides or disables the rest. */
      permissions: Type.Array(Type.String()),
    }),
  ),
});
export type WorkspaceList = Static<typeof WorkspaceList>;

const workspaceName = Type.String({ minLength: 1, maxLength: WORKSPACE_NAME_MAX });
export const WorkspaceBody = Type.Object({ name: workspaceName }, { additionalProperties: false });
/** A change of a workspace's name or switches: at least one of them. */
export const WorkspaceChange = Type.Object(
  { name: Type.Optional(workspaceName), viewers_can_download: Type.Optional(Type.Boolean()), viewers_can_share: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type WorkspaceChange = Static<typeof WorkspaceChange>;
export const CreatedWorkspace = Type.Object({ data: Type.Object({ id: Type.String() }) });

export const WorkspaceParams = Type.Object({ workspaceId: MadeId() });
export const InviteParams = Type.Object({ workspaceId: MadeId(), inviteId: MadeId() });
export const MemberParams = Type.Object({ workspaceId: MadeId(), memberId: Type.String({ maxLength: 64 }) });
export const InviteTokenParams = Type.Object({ inviteToken: Type.String({ maxLength: 64 }) });

/** How long an invite's link works unless the body says otherwise: 3 days. */
export const INVITE_TTL_HOURS = 72;
export const InviteBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: EMAIL_MAX }),
    role: invitableRole,
    /** Optional: hours the link works (INVITE_TTL_HOURS when left out). */
    expires_in_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;
export const CreatedInvite = Type.Object({
  /** emailed: whether the link was also e-mailed (SMTP_URL set and the send went through); else the admin copies it. */
  data: Type.Object({ id: Type.String(), url: Type.String(), expires_at: Type.Integer(), emailed: Type.Boolean() }),
});
export const InviteList = Type.Object({
  data: Type.Array(Type.Object({ id: Type.String(), email: Type.String(), role, created_at: Type.Integer(), expires_at: Type.Integer() })),
});
export const AcceptedInvite = Type.Object({ data: Type.Object({ workspace_id: Type.String(), role }) });

export const MemberList = Type.Object({
  data: Type.Array(Type.Object({ user_id: Type.String(), email: Type.Union([Type.String(), Type.Null()]), name: Type.String(), role })),
});
export const MemberRoleBody = Type.Object({ role }, { additionalProperties: false });

/** One page of the audit log holds at most this many entries; an export (format=jsonl) at most AUDIT_EXPORT_MAX. */
export const AUDIT_PAGE_MAX = 500;
export const AUDIT_EXPORT_MAX = 100_000;
const EPOCH_MS_MAX = 8_640_000_000_000_000;

export const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.String({ maxLength: 64 })),
    actor: Type.Optional(Type.String({ maxLength: EMAIL_MAX })),
    from: Type.Optional(Type.Integer({ minimum: 0, maximum: EPOCH_MS_MAX })),
    to: Type.Optional(Type.Integer({ minimum: 0, maximum: EPOCH_MS_MAX })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX })),
    /** The next_cursor of the page before: the entries after it. */
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('jsonl')])),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object({
  at: Type.Integer(),
  actor_email: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  target: Type.String(),
  before: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  after: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** The API key the action was taken through (its maker is the actor). */
  api_key: Type.Optional(Type.Object({ id: Type.String(), prefix: Type.String() })),
});
export type AuditEntry = Static<typeof AuditEntry>;
