import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/executor.js';
import { clientAddress } from '../http/client-address.js';

// The audit log of a workspace (issue 37): who did what, when, from which address, with the
// setting before and after. Entries are appended here and nowhere else, and never updated (the
// database refuses an UPDATE, migration 0034). A target names the account's own things (a
// campaign, a session's id, a member's e-mail), never a visitor's data.

export const AUDIT_ACTIONS = [
  'workspace.created',
  'workspace.renamed',
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  action: AuditAction;
  target: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** An id that sorts as the entries were written (the time, then randomness). */
const entryId = (at: number) => `${at.toString(36).padStart(10, '0')}-${crypto.randomBytes(8).toString('hex')}`;

/** Appends one entry to the workspace's log, the request's caller and address as its actor. */
export async function audit(db: Executor, request: FastifyRequest, workspaceId: string, entry: AuditEntry): Promise<void> {
  const actorId = request.userId ?? null;
  const actor = actorId ? await db.selectFrom('users').select('email').where('id', '=', actorId).executeTakeFirst() : undefined;
  const at = Date.now();
  await db
    .insertInto('audit_log')
    .values({
      id: entryId(at),
      workspace_id: workspaceId,
      at,
      actor_id: actorId,
      actor_email: actor?.email?.toLowerCase() ?? null,
      ip: clientAddress(request),
      action: entry.action,
      target: entry.target,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
    })
    .execute();
}

/** The fields whose values differ between two settings, each side with only those. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return { before: Object.fromEntries(keys.map((k) => [k, before[k]])), after: Object.fromEntries(keys.map((k) => [k, after[k]])) };
}

export interface AuditFilter {
  action?: string;
  actor?: string;
  from?: number;
  to?: number;
  limit: number;
}

/** The workspace's entries matching the filter, newest first. */
export async function auditEntries(db: Executor, workspaceId: string, filter: AuditFilter) {
  const rows = await db
    .selectFrom('audit_log')
    .select(['at', 'actor_email', 'ip', 'action', 'target', 'before', 'after'])
    .where('workspace_id', '=', workspaceId)
    .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action as string))
    .$if(filter.actor !== undefined, (qb) => qb.where('actor_email', '=', (filter.actor as string).toLowerCase()))
    .$if(filter.from !== undefined, (qb) => qb.where('at', '>=', filter.from as number))
    .$if(filter.to !== undefined, (qb) => qb.where('at', '<=', filter.to as number))
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows.map(({ before, after, ...row }) => ({
    ...row,
    at: Number(row.at),
    ...(before === null ? {} : { before: JSON.parse(before) as Record<string, unknown> }),
    ...(after === null ? {} : { after: JSON.parse(after) as Record<string, unknown> }),
  }));
}
