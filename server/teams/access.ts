import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { CampaignRow } from '../db/schema.js';
import { currentUserId } from '../auth/tokens.js';
import { HttpError, notFound } from '../http/errors.js';
import { can, isRole, missingPermission, type Permission, type Role, type Switches } from '../../common/teams.js';

// The one place a request's right to a workspace's things is decided: the route declares the
// permission it needs (config.permission, required of every /api/v1 route by http/input-rules.ts),
// and these functions ask the matrix of common/teams.ts for the caller's role. No route names a role.

export const WORKSPACE_NOT_FOUND = 'Workspace not found';

/** The permission the request's route declared; a route that reaches here without one is a bug (500). */
export function routePermission(request: FastifyRequest): Permission {
  const permission = request.routeOptions.config.permission;
  if (!permission) throw new Error(`${request.method} ${request.routeOptions.url} asks a workspace's permission but declares none`);
  return permission;
}

/** 403 naming the permission unless the role holds it (in a workspace with these switches on). */
export function demand(role: Role, permission: Permission, switches: Switches = {}): void {
  if (!can(role, permission, switches)) throw new HttpError(403, missingPermission(permission));
}

/** A workspace row's switches (stored 0/1) as common/teams.ts reads them. */
export const switchesOf = (row: { viewers_can_download: number | null; viewers_can_share: number | null }): Switches => ({
  viewers_can_download: Number(row.viewers_can_download) === 1,
  viewers_can_share: Number(row.viewers_can_share) === 1,
});

/** The user's role in the workspace; null when they are not a member (never were, left, or were removed). */
export async function roleIn(db: Executor, workspaceId: string, userId: string): Promise<Role | null> {
  const row = await db.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  return row && isRole(row.role) ? row.role : null;
}

export interface WorkspaceAccess {
  workspaceId: string;
  userId: string;
  role: Role;
  switches: Switches;
}

/**
 * The caller's access to a workspace for the route's permission: 404 when they are not a
 * member (they cannot see it at all), 403 naming the permission when their role lacks it.
 */
export async function workspaceAccess(db: Db, request: FastifyRequest, workspaceId: string, permission = routePermission(request)): Promise<WorkspaceAccess> {
  const userId = currentUserId(request);
  // A key reaches its own workspace only: any other is unknown to it.
  if (request.apiKey && request.apiKey.workspaceId !== workspaceId) throw notFound(WORKSPACE_NOT_FOUND);
  const row = await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['m.role', 'w.viewers_can_download', 'w.viewers_can_share'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!row || !isRole(row.role)) throw notFound(WORKSPACE_NOT_FOUND);
  const switches = switchesOf(row);
  demand(row.role, permission, switches);
  return { workspaceId, userId, role: row.role, switches };
}

/**
 * A campaign for the route's permission: undefined when there is no such campaign, or when it
 * belongs to a workspace the caller is not a member of (they cannot see it at all: the same 404,
 * so ids cannot be probed), or to another workspace than the caller's API key's; 403 naming the
 * permission when the caller's role lacks it.
 */
export async function campaignAccess(db: Db, request: FastifyRequest, campaignId: string): Promise<(CampaignRow & { role: Role }) | undefined> {
  const permission = routePermission(request);
  const userId = currentUserId(request);
  const row = await db
    .selectFrom('campaigns as c')
    .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'c.workspace_id').on('m.user_id', '=', userId))
    .leftJoin('workspaces as w', 'w.id', 'c.workspace_id')
    .selectAll('c')
    .select(['m.role as member_role', 'w.viewers_can_download', 'w.viewers_can_share'])
    .where('c.id', '=', campaignId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { member_role: role, viewers_can_download, viewers_can_share, ...campaign } = row;
  if (!role || !isRole(role)) return undefined;
  if (request.apiKey && campaign.workspace_id !== request.apiKey.workspaceId) return undefined;
  demand(role, permission, switchesOf({ viewers_can_download, viewers_can_share }));
  return { ...campaign, role };
}
