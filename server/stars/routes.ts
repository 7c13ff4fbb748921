import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { SessionParams, StarResponse } from '../../common/api/sessions.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { minuteLimit } from '../http/rate-limit.js';
import { ownedSession } from '../sessions/ownership.js';
import { isStarred, starSession, unstarSession, STAR_WRITES_PER_USER } from './repository.js';

const PATHS = '/api/v1/streaming/sessions/:campaignId/:sessionId/star';
const schema = { params: SessionParams, response: { 200: StarResponse } };

/**
 * A session's star: PUT sets it, DELETE clears it (both idempotent), GET reads it. Owner only,
 * as every session call: 404 for an unknown session, 403 for another owner's campaign.
 */
export async function registerStars(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const writeLimit = minuteLimit(app, 'star-user', STAR_WRITES_PER_USER);
  const preHandler = requireUser(ctx);

  api.get(PATHS, { config: { permission: 'sessions.watch' }, preHandler, schema }, async (request, reply) => {
    const session = await ownedSession(ctx.db, request, request.params);
    reply.header('cache-control', 'private, no-cache');
    return { starred: await isStarred(ctx.db, session.campaign_id, session.id) };
  });

  for (const starred of [true, false]) {
    api.route({
      method: starred ? 'PUT' : 'DELETE',
      url: PATHS,
      config: { permission: 'sessions.star' },
      preHandler,
      schema,
      handler: async (request, reply) => {
        await writeLimit(request, reply, currentUserId(request));
        const session = await ownedSession(ctx.db, request, request.params);
        await (starred ? starSession : unstarSession)(ctx.db, session.campaign_id, session.id);
        return { starred };
      },
    });
  }
}
