import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { SessionsParams, SessionsQuery, SessionsResponse } from '../../common/api/sessions.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { countSessions, markEndedSessionsWithoutInput, pageSessions } from './repository.js';

export const DEFAULT_PAGE = 50;

const schema = { params: SessionsParams, querystring: SessionsQuery, response: { 200: SessionsResponse } };

export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const path of ['/api/v1/streaming/sessions/:campaignId/', '/api/v1/streaming/sessions/:campaignId']) {
      // The documented path ends in a slash; the same call without it answers the same.
      api.get(path, { preHandler: requireUser(ctx), schema }, async (request) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        // Sessions that ended with no human input become bots now, not when the next visitor arrives.
        await markEndedSessionsWithoutInput(ctx.db, campaign.id);
        const { cursor, limit = DEFAULT_PAGE, type } = request.query;
        const search = request.query.search?.trim() || undefined;
        const [page, counts] = await Promise.all([
          pageSessions(ctx.db, campaign.id, { cursor, limit, search, type }),
          countSessions(ctx.db, campaign.id),
        ]);
        return { ...page, counts };
      });
    }
  });
}
