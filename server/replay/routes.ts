import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { badRequest, notFound } from '../http/errors.js';
import { isSessionId } from '../storage/ids.js';
import { acceptsGzip, sendJsonStream } from './encoding.js';
import { demoBody } from './demo.js';
import { replayStream } from './stream.js';

export const SESSION_NOT_FOUND = 'Session not found';

interface ReplayRoute {
  Params: { campaignId: string; sessionId: string };
}

interface DemoRoute {
  Querystring: { isMobile?: 'true' | 'false' };
}

const demoSchema = {
  querystring: {
    type: 'object',
    properties: { isMobile: { type: 'string', enum: ['true', 'false'] } },
  },
} as const;

export async function registerReplay(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Public: the landing page's demo player. Registered before the per-session route.
  app.get<DemoRoute>('/api/v1/replay/retrieve/demo', { schema: demoSchema }, async (request, reply) => {
    const body = await demoBody(request.query.isMobile === 'true' ? 'mobile' : 'desktop');
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('vary', 'Accept-Encoding')
      .header('cache-control', 'public, max-age=3600');
    if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(body.gzip);
    return reply.send(body.json);
  });

  app.get<ReplayRoute>(
    '/api/v1/replay/retrieve/:campaignId/:sessionId',
    { preHandler: requireUser(ctx) },
    async (request: FastifyRequest<ReplayRoute>, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const { sessionId } = request.params;
      if (!isSessionId(sessionId)) throw badRequest('Invalid session id');
      const session = await ctx.db
        .selectFrom('sessions')
        .selectAll()
        .where('campaign_id', '=', campaign.id)
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (!session) throw notFound(SESSION_NOT_FOUND);
      reply.header('cache-control', 'private, no-cache');
      return sendJsonStream(request, reply, replayStream(ctx.db, session));
    },
  );
}
