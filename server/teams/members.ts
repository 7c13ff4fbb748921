import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { HttpError, notFound } from '../http/errors.js';
import type { Role } from '../../common/teams.js';
import { audit } from './audit.js';
import { demand, roleIn, type WorkspaceAccess } from './access.js';
import { addMember, findPendingInvite, isInviteToken, removeMember, setRole, useInvite } from './repository.js';

// What changes a workspace's members: role changes (a transfer of ownership among them), removals
// and accepted invites, each with its audit entry, in one transaction.

export const MEMBER_NOT_FOUND = 'Member not found';
export const OWNER_STAYS = 'The owner keeps their role until they transfer the workspace';
export const OWNER_NOT_REMOVED = 'The owner cannot be removed: transfer the workspace first';
export const INVITE_GONE = 'This invite has expired, was revoked or was already used';
export const INVITE_OTHER_EMAIL = 'This invite is for another e-mail address';

const emailOf = async (db: Executor, userId: string) =>
  (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email ?? null;

/** A member's role changes; to 'owner' it is a transfer (workspace.transfer): the owner becomes an admin. */
export async function changeRole(db: Db, request: FastifyRequest, access: WorkspaceAccess, memberId: string, role: Role): Promise<void> {
  if (role === 'owner') demand(access.role, 'workspace.transfer');
  await db.transaction().execute(async (trx) => {
    const before = await roleIn(trx, access.workspaceId, memberId);
    if (!before) throw notFound(MEMBER_NOT_FOUND);
    if (before === role) return;
    if (before === 'owner') throw new HttpError(403, OWNER_STAYS);
    const email = await emailOf(trx, memberId);
    if (role === 'owner') await setRole(trx, access.workspaceId, access.userId, 'admin');
    await setRole(trx, access.workspaceId, memberId, role);
    await audit(trx, request, access.workspaceId, {
      action: 'member.role_changed',
      target: `member:${email ?? memberId}`,
      before: { role: before },
      after: { role },
    });
  });
}

/** Removes a member (never the owner); they lose the workspace at once. */
export async function dropMember(db: Db, request: FastifyRequest, access: WorkspaceAccess, memberId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const role = await roleIn(trx, access.workspaceId, memberId);
    if (!role) throw notFound(MEMBER_NOT_FOUND);
    if (role === 'owner') throw new HttpError(403, OWNER_NOT_REMOVED);
    const email = await emailOf(trx, memberId);
    await removeMember(trx, access.workspaceId, memberId);
    await audit(trx, request, access.workspaceId, { action: 'member.removed', target: `member:${email ?? memberId}`, before: { role } });
  });
}

/** Accepts an invite for the signed-in user, who must hold the invited e-mail; the invite works once. */
export async function acceptInvite(db: Db, request: FastifyRequest, userId: string, token: string): Promise<{ workspace_id: string; role: Role }> {
  const invite = isInviteToken(token) ? await findPendingInvite(db, token) : undefined;
  if (!invite) throw notFound(INVITE_GONE);
  const email = await emailOf(db, userId);
  if (!email || email.toLowerCase() !== invite.email) throw new HttpError(403, INVITE_OTHER_EMAIL);
  return db.transaction().execute(async (trx) => {
    if (!(await useInvite(trx, invite.id))) throw notFound(INVITE_GONE);
    const existing = await roleIn(trx, invite.workspace_id, userId);
    if (existing) return { workspace_id: invite.workspace_id, role: existing };
    const role = invite.role as Role;
    await addMember(trx, invite.workspace_id, userId, role);
    await audit(trx, request, invite.workspace_id, { action: 'member.joined', target: `member:${invite.email}`, after: { role } });
    return { workspace_id: invite.workspace_id, role };
  });
}
