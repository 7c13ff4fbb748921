import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { SessionsResponse } from '../../src/api/types.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { countSessions, pageSessions } from './queries.js';
import { markEndedSessionsWithoutInput } from '../ingest/store.js';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

interface SessionsRoute {
  Params: { campaignId: string };
  Querystring: { cursor?: string; limit?: number; search?: string; type?: 'human' | 'bot' };
}

const schema = {
  params: {
    type: 'object',
    properties: { campaignId: { type: 'string', maxLength: 64 } },
    required: ['campaignId'],
  },
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      cursor: { type: 'string', maxLength: 200 },
      limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
      search: { type: 'string', maxLength: 100 },
      type: { type: 'string', enum: ['human', 'bot'] },
    },
  },
} as const;

export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const options = { preHandler: requireUser(ctx), schema };
  const handler = async (request: FastifyRequest<SessionsRoute>): Promise<SessionsResponse> => {
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
  };
  // The spec's path ends in a slash; the same call without it answers the same.
  app.get<SessionsRoute>('/api/v1/streaming/sessions/:campaignId/', options, handler);
  app.get<SessionsRoute>('/api/v1/streaming/sessions/:campaignId', options, handler);
}
