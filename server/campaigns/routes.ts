import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Insertable, Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Campaign } from '../../common/api-types.js';
import { CampaignIdParams, CampaignListResponse, CampaignResponse, CreateCampaignPayload } from '../../common/api/campaigns.js';
import { Ok } from '../../common/api/shared.js';
import type { CampaignsTable } from '../db/schema.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { checkSameOrigin } from '../http/origin.js';
import { createCampaignValidator } from './payload.js';
import { ownedCampaign } from './ownership.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { deleteCampaign, insertCampaign, listCampaigns } from './repository.js';

/** A create body is a few hundred bytes; anything near this is not a campaign. */
const CREATE_BODY_LIMIT = 16 * 1024;

export function toCampaign(row: Insertable<CampaignsTable> | Selectable<CampaignsTable>): Campaign {
  return {
    id: row.id,
    name: row.name,
    domains: row.domains,
    limit: row.session_limit,
    start_date_time: row.start_date_time,
    end_date_time: row.end_date_time,
    captureConsole: row.capture_console !== 0,
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
  const sameOrigin = checkSameOrigin(ctx.config.publicUrl);

  api.get('/api/v1/campaign/getAll', { preHandler: signedIn, schema: { response: { 200: CampaignListResponse } } }, async (request) => {
    const rows = await listCampaigns(ctx.db, currentUserId(request));
    return { data: rows.map(toCampaign) };
  });

  api.post(
    '/api/v1/campaign/create',
    {
      preHandler: [signedIn, sameOrigin],
      bodyLimit: CREATE_BODY_LIMIT,
      schema: { body: CreateCampaignPayload, response: { 201: CampaignResponse } },
      validatorCompiler: createCampaignValidator,
    },
    async (request, reply) => {
      const payload = request.body;
      const row: Insertable<CampaignsTable> = {
        id: crypto.randomUUID(),
        owner_id: currentUserId(request),
        name: payload.name,
        domains: payload.domains,
        session_limit: payload.limit,
        start_date_time: payload.start_date_time,
        end_date_time: payload.end_date_time,
        created_at: Date.now(),
        capture_console: payload.captureConsole === false ? 0 : 1,
      };
      await insertCampaign(ctx.db, row);
      return reply.status(201).send({ data: toCampaign(row) });
    },
  );

  api.delete(
    '/api/v1/campaign/delete/:id',
    { preHandler: [signedIn, sameOrigin], schema: { params: CampaignIdParams, response: { 200: Ok } } },
    async (request) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.id);
      await deleteCampaign(ctx.db, campaign);
      return { ok: true as const };
    },
  );
}
