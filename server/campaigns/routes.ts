import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Insertable, Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import {
  type Campaign,
  CampaignIdParams,
  CampaignListQuery,
  CampaignListResponse,
  CampaignResponse,
  CreateCampaignPayload,
  DEFAULT_IP_MODE,
  DEFAULT_RETENTION_DAYS,
  UpdateCampaignPayload,
} from '../../common/api/campaigns.js';
import { Ok } from '../../common/api/shared.js';
import { ruleColumns } from './recording-rules.js';
import type { CampaignsTable } from '../db/schema.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { checkCampaign, createCampaignValidator, reasonedValidator } from './payload.js';
import { ownedCampaign } from './ownership.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { deleteCampaign, insertCampaign, lastDataAt, listCampaigns, updateCampaign } from './repository.js';
import { toCampaign } from './rows.js';
import { workspaceAccess } from '../teams/access.js';
import { audit, changedFields } from '../teams/audit.js';
import { personalWorkspace } from '../teams/repository.js';

/** A create body is a few hundred bytes; anything near this is not a campaign. */
const CREATE_BODY_LIMIT = 16 * 1024;

/** The stored campaign in the create body's shape (the API's campaign without its id), for an update to change. */
function editableFields(row: Selectable<CampaignsTable>): UpdateCampaignPayload {
  const { id: _id, workspace_id: _workspace, session_count: _count, last_data_at: _last, storage: _storage, ...fields } = toCampaign(row);
  // Stored values passed the create rules when they were written.
  return fields as UpdateCampaignPayload;
}

/** The campaign as every campaign call answers it: with its use of the storage quota (one SUM, kept a few seconds). */
async function answered(ctx: AppContext, row: Parameters<typeof toCampaign>[0], lastData: number | null): Promise<Campaign> {
  return { ...toCampaign(row, lastData), storage: await ctx.storageQuota.use(row.id) };
}

/** The columns whose change is a change of the campaign's recording rules or consent (audited as such). */
const RULE_COLUMNS = new Set([
  'capture_console',
  'retention_days',
  'ip_mode',
  'keep_query',
  'masked_params',
  'sample_rate',
  'min_duration_ms',
  'url_include',
  'url_exclude',
  'block_selector',
  'privacy',
  'consent',
  'consent_buffer_seconds',
]);

/** The row's columns for a checked create body, with the defaults of the fields it left out. */
function columnsOf(payload: CreateCampaignPayload) {
  return {
    name: payload.name,
    domains: payload.domains,
    session_limit: payload.limit ?? 0,
    start_date_time: payload.start_date_time,
    end_date_time: payload.end_date_time,
    capture_console: payload.captureConsole === false ? 0 : 1,
    retention_days: payload.retention_days ?? DEFAULT_RETENTION_DAYS,
    ip_mode: payload.ip_mode ?? DEFAULT_IP_MODE,
    ...ruleColumns(payload),
  };
}

export async function registerCampaigns(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    campaignRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx);
  });
}

function campaignRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const signedIn = requireUser(ctx);

  // Without workspace_id: every campaign of every workspace the caller belongs to (the PWA's list before workspaces).
  api.get(
    '/api/v1/campaign/getAll',
    { config: { permission: 'campaigns.view' }, preHandler: signedIn, schema: { querystring: CampaignListQuery, response: { 200: CampaignListResponse } } },
    async (request) => {
      // A key lists its own workspace's campaigns only.
      const workspaceId = request.query.workspace_id ?? request.apiKey?.workspaceId;
      if (workspaceId !== undefined) await workspaceAccess(ctx.db, request, workspaceId);
      const rows = await listCampaigns(ctx.db, currentUserId(request), workspaceId);
      return { data: await Promise.all(rows.map((row) => answered(ctx, row, row.last_data_at))) };
    },
  );

  api.post(
    '/api/v1/campaign/create',
    {
      config: { permission: 'campaigns.manage' },
      preHandler: signedIn,
      bodyLimit: CREATE_BODY_LIMIT,
      schema: { body: CreateCampaignPayload, response: { 201: CampaignResponse } },
      validatorCompiler: createCampaignValidator,
    },
    async (request, reply) => {
      const payload = request.body;
      const userId = currentUserId(request);
      const { workspaceId } = await workspaceAccess(
        ctx.db,
        request,
        payload.workspace_id ?? request.apiKey?.workspaceId ?? (await personalWorkspace(ctx.db, userId)),
      );
      const row: Insertable<CampaignsTable> = {
        id: crypto.randomUUID(),
        owner_id: userId,
        workspace_id: workspaceId,
        created_at: Date.now(),
        ...columnsOf(payload),
      };
      await ctx.db.transaction().execute(async (trx) => {
        await insertCampaign(trx, row);
        await audit(trx, request, workspaceId, { action: 'campaign.created', target: `campaign:${row.id}`, after: columnsOf(payload) });
      });
      return reply.status(201).send({ data: await answered(ctx, row, null) });
    },
  );

  // Who may change the campaign is settled before its body is read: a caller without the right
  // hears 401/403/404, never what its body got wrong.
  const toUpdate = new WeakMap<FastifyRequest, Selectable<CampaignsTable>>();
  api.patch(
    '/api/v1/campaign/update/:id',
    {
      config: { permission: 'campaigns.manage' },
      preValidation: [signedIn, async (request) => void toUpdate.set(request, await ownedCampaign(ctx.db, request, (request.params as { id: string }).id))],
      bodyLimit: CREATE_BODY_LIMIT,
      schema: { params: CampaignIdParams, body: UpdateCampaignPayload, response: { 200: CampaignResponse } },
      validatorCompiler: reasonedValidator,
    },
    async (request) => {
      const campaign = toUpdate.get(request) as Selectable<CampaignsTable>;
      // The campaign the update makes is checked whole, by the create rules.
      const changed = checkCampaign({ ...editableFields(campaign), ...request.body });
      const change = changedFields(campaign, columnsOf(changed));
      const rules = Object.keys(change.after).some((column) => RULE_COLUMNS.has(column));
      await ctx.db.transaction().execute(async (trx) => {
        await updateCampaign(trx, ctx.keptCampaigns, campaign, columnsOf(changed));
        await audit(trx, request, campaign.workspace_id, {
          action: rules ? 'campaign.rules_changed' : 'campaign.edited',
          target: `campaign:${campaign.id}`,
          ...change,
        });
      });
      return { data: await answered(ctx, { ...campaign, ...columnsOf(changed) }, await lastDataAt(ctx.db, campaign.id)) };
    },
  );

  api.delete(
    '/api/v1/campaign/delete/:id',
    { config: { permission: 'campaigns.manage' }, preHandler: signedIn, schema: { params: CampaignIdParams, response: { 200: Ok } } },
    async (request) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.id);
      await deleteCampaign(ctx.db, ctx.keptCampaigns, campaign, (trx) =>
        audit(trx, request, campaign.workspace_id, {
          action: 'campaign.deleted',
          target: `campaign:${campaign.id}`,
          before: { name: campaign.name, domains: campaign.domains },
        }),
      );
      return { ok: true as const };
    },
  );
}
