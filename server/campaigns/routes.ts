import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Campaign, CampaignListResponse } from '../../src/api/types.js';
import type { Insertable } from 'kysely';
import type { CampaignsTable } from '../db/schema.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { checkSameOrigin } from '../http/origin.js';
import { parseCreateCampaign } from './payload.js';
import { ownedCampaign } from './ownership.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';

/** A create body is a few hundred bytes; anything near this is not a campaign. */
const CREATE_BODY_LIMIT = 16 * 1024;

export function toCampaign(row: Omit<Insertable<CampaignsTable>, 'session_count'>): Campaign {
  return {
    id: row.id,
    name: row.name,
    domains: row.domains,
    limit: row.session_limit,
    start_date_time: row.start_date_time,
    end_date_time: row.end_date_time,
  };
}

export async function registerCampaigns(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    campaignRoutes(scope, ctx);
  });
}

function campaignRoutes(app: FastifyInstance, ctx: AppContext): void {
  const signedIn = requireUser(ctx);
  const sameOrigin = checkSameOrigin(ctx.config.publicUrl);

  app.get('/api/v1/campaign/getAll', { preHandler: signedIn }, async (request): Promise<CampaignListResponse> => {
    const rows = await ctx.db
      .selectFrom('campaigns')
      .selectAll()
      .where('owner_id', '=', currentUserId(request))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return { data: rows.map(toCampaign) };
  });

  app.post(
    '/api/v1/campaign/create',
    { preHandler: [signedIn, sameOrigin], bodyLimit: CREATE_BODY_LIMIT },
    async (request, reply) => {
      const payload = parseCreateCampaign(request.body);
      const row: Insertable<CampaignsTable> = {
        id: crypto.randomUUID(),
        owner_id: currentUserId(request),
        name: payload.name,
        domains: payload.domains,
        session_limit: payload.limit,
        start_date_time: payload.start_date_time,
        end_date_time: payload.end_date_time,
        created_at: Date.now(),
      };
      await ctx.db.insertInto('campaigns').values(row).execute();
      return reply.status(201).send({ data: toCampaign(row) });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/v1/campaign/delete/:id',
    { preHandler: [signedIn, sameOrigin] },
    async (request) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.id);
      // Everything recorded under the campaign goes with it, or nothing does.
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('chunks').where('campaign_id', '=', campaign.id).execute();
        await trx.deleteFrom('sessions').where('campaign_id', '=', campaign.id).execute();
        await trx.deleteFrom('campaigns').where('id', '=', campaign.id).where('owner_id', '=', campaign.owner_id).execute();
      });
      return { ok: true };
    },
  );
}
