import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/executor.js';
import { clientAddress } from '../http/client-address.js';
import { badRequest } from '../http/errors.js';
import type { AuditAction } from '../../common/teams.js';

// The audit log of a workspace (issue 37): who did what, when, from which address, with the
// setting before and after. Entries are appended here and nowhere else, and never updated (the
// database refuses an UPDATE, migration 0034); they are deleted only by the retention sweep
// (sweepAuditLog, AUDIT_RETENTION_DAYS). A target names the account's own things (a
// campaign, a session's id, a member's e-mail), never a visitor's data.

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
      // An action taken through an API key names it besides its maker.
      api_key: request.apiKey ? JSON.stringify({ id: request.apiKey.id, prefix: request.apiKey.prefix }) : null,
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
  /** Where the previous page ended (next_cursor of its answer). */
  cursor?: string;
}

/** A page's end, as the next page's cursor: the last entry's time and id (opaque to clients). */
const cursorOf = (entry: { at: number; id: string }) => Buffer.from(`${entry.at}:${entry.id}`, 'utf8').toString('base64url');

/** A cursor's time and id; undefined when it is not one this server made (400 for the caller). */
export function readCursor(cursor: string): { at: number; id: string } | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  if (rest.length || !/^\d{1,16}$/.test(at ?? '') || !/^[0-9a-z]{10}-[0-9a-f]{16}$/.test(id ?? '')) return undefined;
  return { at: Number(at), id };
}

/** The workspace's entries matching the filter, newest first, from the cursor on; next_cursor when more follow. */
export async function auditEntries(db: Executor, workspaceId: string, filter: AuditFilter) {
  const after = filter.cursor === undefined ? undefined : readCursor(filter.cursor);
  if (filter.cursor !== undefined && !after) throw badRequest('cursor must be the next_cursor of an earlier page');
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'at', 'actor_email', 'ip', 'action', 'target', 'before', 'after', 'api_key'])
    .where('workspace_id', '=', workspaceId)
    .$if(filter.action !== undefined, (qb) => qb.where('action', '=', filter.action as string))
    .$if(filter.actor !== undefined, (qb) => qb.where('actor_email', '=', (filter.actor as string).toLowerCase()))
    .$if(filter.from !== undefined, (qb) => qb.where('at', '>=', filter.from as number))
    .$if(filter.to !== undefined, (qb) => qb.where('at', '<=', filter.to as number))
    .$if(after !== undefined, (qb) => {
      const { at, id } = after as { at: number; id: string };
      return qb.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
    })
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    entries: page.map(({ id: _id, before, after: afterText, api_key: apiKey, ...row }) => ({
      ...row,
      at: Number(row.at),
      ...(apiKey === null ? {} : { api_key: JSON.parse(apiKey) as { id: string; prefix: string } }),
      ...(before === null ? {} : { before: JSON.parse(before) as Record<string, unknown> }),
      ...(afterText === null ? {} : { after: JSON.parse(afterText) as Record<string, unknown> }),
    })),
    nextCursor: rows.length > filter.limit && last ? cursorOf({ at: Number(last.at), id: last.id }) : null,
  };
}

const DAY_MS = 86_400_000;

/** Deletes the entries older than the retention (AUDIT_RETENTION_DAYS; 0 keeps them forever): the only deletion of the log. */
export async function sweepAuditLog(db: Executor, retentionDays: number, now = Date.now()): Promise<number> {
  if (retentionDays <= 0) return 0;
  const result = await db
    .deleteFrom('audit_log')
    .where('at', '<', now - retentionDays * DAY_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
