import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Insertable, Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import {
  type Campaign,
  CampaignIdParams,
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

/** A create body is a few hundred bytes; anything near this is not a campaign. */
const CREATE_BODY_LIMIT = 16 * 1024;

/** The stored campaign in the create body's shape (the API's campaign without its id), for an update to change. */
function editableFields(row: Selectable<CampaignsTable>): UpdateCampaignPayload {
  const { id: _id, session_count: _count, last_data_at: _last, storage: _storage, ...fields } = toCampaign(row);
  // Stored values passed the create rules when they were written.
  return fields as UpdateCampaignPayload;
}

/** The campaign as every campaign call answers it: with its use of the storage quota (one SUM, kept a few seconds). */
async function answered(ctx: AppContext, row: Parameters<typeof toCampaign>[0], lastData: number | null): Promise<Campaign> {
  return { ...toCampaign(row, lastData), storage: await ctx.storageQuota.use(row.id) };
}

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

  api.get('/api/v1/campaign/getAll', { preHandler: signedIn, schema: { response: { 200: CampaignListResponse } } }, async (request) => {
    const rows = await listCampaigns(ctx.db, currentUserId(request));
    return { data: await Promise.all(rows.map((row) => answered(ctx, row, row.last_data_at))) };
  });

  api.post(
    '/api/v1/campaign/create',
    {
      preHandler: signedIn,
      bodyLimit: CREATE_BODY_LIMIT,
      schema: { body: CreateCampaignPayload, response: { 201: CampaignResponse } },
      validatorCompiler: createCampaignValidator,
    },
    async (request, reply) => {
      const payload = request.body;
      const row: Insertable<CampaignsTable> = {
        id: crypto.randomUUID(),
        owner_id: currentUserId(request),
        created_at: Date.now(),
        ...columnsOf(payload),
      };
      await insertCampaign(ctx.db, row);
      return reply.status(201).send({ data: await answered(ctx, row, null) });
    },
  );

  // Who may change the campaign is settled before its body is read: a caller without the right
  // hears 401/403/404, never what its body got wrong.
  const toUpdate = new WeakMap<FastifyRequest, Selectable<CampaignsTable>>();
  api.patch(
    '/api/v1/campaign/update/:id',
    {
      preValidation: [signedIn, async (request) => void toUpdate.set(request, await ownedCampaign(ctx.db, request, (request.params as { id: string }).id))],
      bodyLimit: CREATE_BODY_LIMIT,
      schema: { params: CampaignIdParams, body: UpdateCampaignPayload, response: { 200: CampaignResponse } },
      validatorCompiler: reasonedValidator,
    },
    async (request) => {
      const campaign = toUpdate.get(request) as Selectable<CampaignsTable>;
      // The campaign the update makes is checked whole, by the create rules.
      const changed = checkCampaign({ ...editableFields(campaign), ...request.body });
      await updateCampaign(ctx.db, ctx.keptCampaigns, campaign, columnsOf(changed));
      return { data: await answered(ctx, { ...campaign, ...columnsOf(changed) }, await lastDataAt(ctx.db, campaign.id)) };
    },
  );

  api.delete('/api/v1/campaign/delete/:id', { preHandler: signedIn, schema: { params: CampaignIdParams, response: { 200: Ok } } }, async (request) => {
    const campaign = await ownedCampaign(ctx.db, request, request.params.id);
    await deleteCampaign(ctx.db, ctx.keptCampaigns, campaign);
    return { ok: true as const };
  });
}
