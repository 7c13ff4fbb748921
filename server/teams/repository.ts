import crypto from 'node:crypto';
import type { Executor } from '../db/executor.js';
import { isRole, permissionsOf, type Role } from '../../common/teams.js';
import { switchesOf } from './access.js';

/** The workspaces, members and invites tables: every query on them, each taking the database or a transaction. */

/** What a personal workspace is called (its owner may rename it). */
export const PERSONAL_NAME = 'Personal';

/** The account's personal workspace, made (with the account as its owner) when it has none. */
export async function personalWorkspace(db: Executor, userId: string, now = Date.now()): Promise<string> {
  const existing = await db.selectFrom('workspaces').select('id').where('personal_of', '=', userId).executeTakeFirst();
  if (existing) return existing.id;
  const id = crypto.randomUUID();
  await db
    .insertInto('workspaces')
    .values({ id, name: PERSONAL_NAME, personal_of: userId, created_at: now })
    .onConflict((oc) => oc.column('personal_of').doNothing())
    .execute();
  const row = await db.selectFrom('workspaces').select('id').where('personal_of', '=', userId).executeTakeFirstOrThrow();
  if (row.id === id) await addMember(db, id, userId, 'owner', now);
  return row.id;
}

export async function createWorkspace(db: Executor, name: string, ownerId: string, now = Date.now()): Promise<string> {
  const id = crypto.randomUUID();
  await db.insertInto('workspaces').values({ id, name, personal_of: null, created_at: now }).execute();
  await addMember(db, id, ownerId, 'owner', now);
  return id;
}

export async function addMember(db: Executor, workspaceId: string, userId: string, role: Role, now = Date.now()): Promise<void> {
  await db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, user_id: userId, role, joined_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
    .execute();
}

/** The user's workspaces with their role, the switches and the caller's permissions in each, personal first, then oldest first. */
export async function workspacesOf(db: Executor, userId: string) {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'm.role', 'w.personal_of', 'w.created_at', 'w.viewers_can_download', 'w.viewers_can_share'])
    .where('m.user_id', '=', userId)
    .orderBy('w.created_at')
    .orderBy('w.id')
    .execute();
  return rows
    .filter((row) => isRole(row.role))
    .map((row) => {
      const switches = switchesOf(row);
      return {
        id: row.id,
        name: row.name,
        role: row.role as Role,
        personal: row.personal_of === userId,
        viewers_can_download: switches.viewers_can_download === true,
        viewers_can_share: switches.viewers_can_share === true,
        permissions: permissionsOf(row.role as Role, switches),
      };
    })
    .sort((a, b) => Number(b.personal) - Number(a.personal));
}

/** A workspace's name and switches as the API shows them. */
export interface WorkspaceSettings {
  name: string;
  viewers_can_download: boolean;
  viewers_can_share: boolean;
}

export async function workspaceSettings(db: Executor, workspaceId: string): Promise<WorkspaceSettings | undefined> {
  const row = await findWorkspace(db, workspaceId);
  return row && { name: row.name, viewers_can_download: Number(row.viewers_can_download) === 1, viewers_can_share: Number(row.viewers_can_share) === 1 };
}

export async function updateWorkspace(db: Executor, workspaceId: string, settings: Partial<WorkspaceSettings>): Promise<void> {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  await db
    .updateTable('workspaces')
    .set({
      ...(settings.name === undefined ? {} : { name: settings.name }),
      ...(settings.viewers_can_download === undefined ? {} : { viewers_can_download: flag(settings.viewers_can_download) }),
      ...(settings.viewers_can_share === undefined ? {} : { viewers_can_share: flag(settings.viewers_can_share) }),
    })
    .where('id', '=', workspaceId)
    .execute();
}

export function findWorkspace(db: Executor, workspaceId: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
}

export interface MemberRow {
  user_id: string;
  email: string | null;
  name: string;
  role: Role;
}

export async function membersOf(db: Executor, workspaceId: string): Promise<MemberRow[]> {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'm.role', 'm.joined_at'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('m.joined_at')
    .orderBy('m.user_id')
    .execute();
  return rows.filter((row) => isRole(row.role)).map(({ user_id, email, name, role }) => ({ user_id, email, name, role: role as Role }));
}

export async function setRole(db: Executor, workspaceId: string, userId: string, role: Role): Promise<void> {
  await db.updateTable('workspace_members').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

export async function removeMember(db: Executor, workspaceId: string, userId: string): Promise<void> {
  await db.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

/** An invite's token: 32 random bytes, URL-safe; only its SHA-256 is stored. */
export const newInviteToken = () => crypto.randomBytes(32).toString('base64url');
export const hashInviteToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
/** What a token looks like (43 URL-safe characters): anything else is not looked up. */
export const isInviteToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

export interface NewInvite {
  workspaceId: string;
  email: string;
  role: Role;
  invitedBy: string;
  ttlMs: number;
}

/** Stores an invite and answers its token (shown once, in the link). */
export async function createInvite(db: Executor, invite: NewInvite, now = Date.now()): Promise<{ id: string; token: string; expiresAt: number }> {
  const id = crypto.randomUUID();
  const token = newInviteToken();
  const expiresAt = now + invite.ttlMs;
  await db
    .insertInto('workspace_invites')
    .values({
      id,
      workspace_id: invite.workspaceId,
      email: invite.email,
      role: invite.role,
      token_hash: hashInviteToken(token),
      invited_by: invite.invitedBy,
      created_at: now,
      expires_at: expiresAt,
      accepted_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, token, expiresAt };
}

/** The workspace's invites neither accepted nor revoked nor expired, newest first. */
export function pendingInvites(db: Executor, workspaceId: string, now = Date.now()) {
  return db
    .selectFrom('workspace_invites')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findInvite(db: Executor, workspaceId: string, inviteId: string) {
  return db.selectFrom('workspace_invites').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', inviteId).executeTakeFirst();
}

/** Revokes a pending invite; false when the workspace has no such pending invite. */
export async function revokeInvite(db: Executor, workspaceId: string, inviteId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('workspace_invites')
    .set({ revoked_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The invite a token opens while it is pending (not accepted, revoked or expired). */
export function findPendingInvite(db: Executor, token: string, now = Date.now()) {
  return db
    .selectFrom('workspace_invites')
    .selectAll()
    .where('token_hash', '=', hashInviteToken(token))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the invite used, once: false when another request used (or revoked) it first. */
export async function useInvite(db: Executor, inviteId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('workspace_invites')
    .set({ accepted_at: now })
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
