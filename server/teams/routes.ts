import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { Ok } from '../../common/api/shared.js';
import {
  AcceptedInvite,
  AUDIT_EXPORT_MAX,
  AuditQuery,
  CreatedInvite,
  CreatedWorkspace,
  INVITE_TTL_HOURS,
  InviteBody,
  InviteList,
  InviteParams,
  InviteTokenParams,
  MemberList,
  MemberParams,
  MemberRoleBody,
  WorkspaceBody,
  WorkspaceChange,
  WorkspaceList,
  WorkspaceParams,
} from '../../common/api/workspaces.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { badRequest, notFound, requiredText } from '../http/errors.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { minuteLimit } from '../http/rate-limit.js';
import { WORKSPACE_NOT_FOUND, workspaceAccess } from '../teams/access.js';
import { audit, auditEntries, changedFields } from '../teams/audit.js';
import { deleteWorkspace } from '../teams/deletion.js';
import { mailInvite } from '../teams/invite-mail.js';
import { acceptInvite, changeRole, dropMember } from '../teams/members.js';
import {
  createInvite,
  createWorkspace,
  findInvite,
  membersOf,
  pendingInvites,
  revokeInvite,
  updateWorkspace,
  workspaceSettings,
  workspacesOf,
} from '../teams/repository.js';

/** Workspace, invite and member changes one account may make per minute. */
const CHANGES_PER_USER = 60;
const HOUR_MS = 3_600_000;
const AUDIT_PAGE_DEFAULT = 100;
const INVITE_NOT_FOUND = 'Invite not found';
/** An address an invite (and its e-mail) can go to: one @, no space, no angle bracket or line break. */
const INVITE_EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;

/** Workspaces, their members, invites and audit log (issue 37; docs/teams.md). */
export async function registerTeams(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    teamRoutes(scope, ctx);
  });
}

function teamRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = ctx;
  const preHandler = requireUser(ctx);
  const changeLimit = minuteLimit(app, 'team-change-user', CHANGES_PER_USER);
  const account = { access: 'account' as const };
  const inviteUrl = (token: string) => `${ctx.config.publicUrl}/invite/${token}`;
  /** E-mails the invite where SMTP_URL is set: whether it went (a failure is logged, never the invite's). */
  const mailed = async (request: FastifyRequest, workspaceId: string, invite: { to: string; url: string; role: string; expiresAt: number }) => {
    if (!ctx.config.smtp) return false;
    const [workspace, inviter] = await Promise.all([
      workspaceSettings(db, workspaceId),
      db.selectFrom('users').select(['name', 'email']).where('id', '=', currentUserId(request)).executeTakeFirst(),
    ]);
    const invitedBy = inviter ? inviter.name.trim() || inviter.email : null;
    return mailInvite(ctx.config, request.log, { ...invite, workspaceName: workspace?.name ?? '', invitedBy });
  };

  api.get('/api/v1/workspaces', { config: account, preHandler, schema: { response: { 200: WorkspaceList } } }, async (request) => ({
    data: await workspacesOf(db, currentUserId(request)),
  }));

  api.post(
    '/api/v1/workspaces',
    { config: account, preHandler, schema: { body: WorkspaceBody, response: { 201: CreatedWorkspace } } },
    async (request, reply) => {
      const userId = currentUserId(request);
      await changeLimit(request, reply, userId);
      const name = requiredText(request.body.name, 'name must not be empty');
      const id = await db.transaction().execute(async (trx) => {
        const made = await createWorkspace(trx, name, userId);
        await audit(trx, request, made, { action: 'workspace.created', target: `workspace:${made}`, after: { name } });
        return made;
      });
      return reply.status(201).send({ data: { id } });
    },
  );

  // A name-only change is audited as workspace.renamed; a change of a switch as workspace.settings_changed (with the name if it changed too).
  api.patch(
    '/api/v1/workspaces/:workspaceId',
    { config: { permission: 'settings.manage' }, preHandler, schema: { params: WorkspaceParams, body: WorkspaceChange, response: { 200: Ok } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      const { name, ...switches } = request.body;
      const change = { ...(name === undefined ? {} : { name: requiredText(name, 'name must not be empty') }), ...switches };
      await db.transaction().execute(async (trx) => {
        const before = await workspaceSettings(trx, access.workspaceId);
        if (!before) throw notFound(WORKSPACE_NOT_FOUND);
        const changed = changedFields({ ...before }, change);
        const keys = Object.keys(changed.after);
        if (!keys.length) return;
        await updateWorkspace(trx, access.workspaceId, change);
        const action = keys.length === 1 && keys[0] === 'name' ? 'workspace.renamed' : 'workspace.settings_changed';
        await audit(trx, request, access.workspaceId, { action, target: `workspace:${access.workspaceId}`, ...changed });
      });
      return { ok: true as const };
    },
  );

  api.delete(
    '/api/v1/workspaces/:workspaceId',
    { config: { permission: 'workspace.delete' }, preHandler, schema: { params: WorkspaceParams, response: { 200: Ok } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      const members = await deleteWorkspace(db, ctx.keptCampaigns, request, access);
      for (const member of members) ctx.liveStreams.endAccess(member, access.workspaceId);
      return { ok: true as const };
    },
  );

  api.get(
    '/api/v1/workspaces/:workspaceId/members',
    { config: { permission: 'members.view' }, preHandler, schema: { params: WorkspaceParams, response: { 200: MemberList } } },
    async (request, reply) => {
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      reply.header('cache-control', 'private, no-cache');
      return { data: await membersOf(db, access.workspaceId) };
    },
  );

  api.patch(
    '/api/v1/workspaces/:workspaceId/members/:memberId',
    { config: { permission: 'members.manage' }, preHandler, schema: { params: MemberParams, body: MemberRoleBody, response: { 200: Ok } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      await changeRole(db, request, access, request.params.memberId, request.body.role);
      return { ok: true as const };
    },
  );

  api.delete(
    '/api/v1/workspaces/:workspaceId/members/:memberId',
    { config: { permission: 'members.manage' }, preHandler, schema: { params: MemberParams, response: { 200: Ok } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      await dropMember(db, request, access, request.params.memberId);
      // Their open live views of the workspace end now on this node; other nodes' at their next heartbeat.
      ctx.liveStreams.endAccess(request.params.memberId, access.workspaceId);
      return { ok: true as const };
    },
  );

  api.post(
    '/api/v1/workspaces/:workspaceId/invites',
    { config: { permission: 'members.manage' }, preHandler, schema: { params: WorkspaceParams, body: InviteBody, response: { 201: CreatedInvite } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      const email = request.body.email.trim().toLowerCase();
      if (!INVITE_EMAIL.test(email)) throw badRequest('email must be an e-mail address');
      const ttlMs = (request.body.expires_in_hours ?? INVITE_TTL_HOURS) * HOUR_MS;
      const invite = await db.transaction().execute(async (trx) => {
        const made = await createInvite(trx, { workspaceId: access.workspaceId, email, role: request.body.role, invitedBy: access.userId, ttlMs });
        await audit(trx, request, access.workspaceId, { action: 'member.invited', target: `member:${email}`, after: { role: request.body.role } });
        return made;
      });
      const url = inviteUrl(invite.token);
      const emailed = await mailed(request, access.workspaceId, { to: email, url, role: request.body.role, expiresAt: invite.expiresAt });
      return reply.status(201).send({ data: { id: invite.id, url, expires_at: invite.expiresAt, emailed } });
    },
  );

  api.get(
    '/api/v1/workspaces/:workspaceId/invites',
    { config: { permission: 'members.manage' }, preHandler, schema: { params: WorkspaceParams, response: { 200: InviteList } } },
    async (request, reply) => {
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      reply.header('cache-control', 'private, no-cache');
      const rows = await pendingInvites(db, access.workspaceId);
      return { data: rows.map((row) => ({ ...row, created_at: Number(row.created_at), expires_at: Number(row.expires_at) })) as never };
    },
  );

  // Sending again: the old link stops working, a new one (a new id) works for the same e-mail and role.
  api.post(
    '/api/v1/workspaces/:workspaceId/invites/:inviteId/resend',
    { config: { permission: 'members.manage' }, preHandler, schema: { params: InviteParams, response: { 201: CreatedInvite } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      const old = await findInvite(db, access.workspaceId, request.params.inviteId);
      if (!old || old.accepted_at !== null) throw notFound(INVITE_NOT_FOUND);
      const ttlMs = Number(old.expires_at) - Number(old.created_at);
      const invite = await db.transaction().execute(async (trx) => {
        await revokeInvite(trx, access.workspaceId, old.id);
        const made = await createInvite(trx, { workspaceId: access.workspaceId, email: old.email, role: old.role as never, invitedBy: access.userId, ttlMs });
        await audit(trx, request, access.workspaceId, { action: 'member.invited', target: `member:${old.email}`, after: { role: old.role } });
        return made;
      });
      const url = inviteUrl(invite.token);
      const emailed = await mailed(request, access.workspaceId, { to: old.email, url, role: old.role, expiresAt: invite.expiresAt });
      return reply.status(201).send({ data: { id: invite.id, url, expires_at: invite.expiresAt, emailed } });
    },
  );

  api.delete(
    '/api/v1/workspaces/:workspaceId/invites/:inviteId',
    { config: { permission: 'members.manage' }, preHandler, schema: { params: InviteParams, response: { 200: Ok } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      await db.transaction().execute(async (trx) => {
        const invite = await findInvite(trx, access.workspaceId, request.params.inviteId);
        if (!invite || !(await revokeInvite(trx, access.workspaceId, invite.id))) throw notFound(INVITE_NOT_FOUND);
        await audit(trx, request, access.workspaceId, { action: 'invite.revoked', target: `member:${invite.email}` });
      });
      return { ok: true as const };
    },
  );

  api.post(
    '/api/v1/invites/:inviteToken/accept',
    { config: account, preHandler, schema: { params: InviteTokenParams, response: { 200: AcceptedInvite } } },
    async (request, reply) => {
      const userId = currentUserId(request);
      await changeLimit(request, reply, userId);
      return { data: await acceptInvite(db, request, userId, request.params.inviteToken) };
    },
  );

  api.get(
    '/api/v1/workspaces/:workspaceId/audit',
    { config: { permission: 'audit.read' }, preHandler, schema: { params: WorkspaceParams, querystring: AuditQuery } },
    async (request, reply) => {
      const access = await workspaceAccess(db, request, request.params.workspaceId);
      const { format, limit, ...filter } = request.query;
      reply.header('cache-control', 'private, no-store');
      if (format === 'jsonl') {
        const { entries } = await auditEntries(db, access.workspaceId, { ...filter, limit: AUDIT_EXPORT_MAX });
        reply.header('content-disposition', `attachment; filename="audit-${access.workspaceId}.jsonl"`);
        return reply.type('application/x-ndjson; charset=utf-8').send(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      }
      const page = await auditEntries(db, access.workspaceId, { ...filter, limit: limit ?? AUDIT_PAGE_DEFAULT });
      return reply.type('application/json; charset=utf-8').send({ data: page.entries, next_cursor: page.nextCursor });
    },
  );
}
