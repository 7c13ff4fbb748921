import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { SessionParams, SessionsParams, SessionsQuery, SessionsResponse } from '../../common/api/sessions.js';
import { Ok } from '../../common/api/shared.js';
import { requireUser } from '../auth/tokens.js';
import { notFound } from '../http/errors.js';
import { isSessionId } from '../storage/ids.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { SESSION_NOT_FOUND } from './ownership.js';
import { countSessions, deleteSession, pageSessions } from './repository.js';
import { readListFilters } from './filters.js';
import { starredAmong } from '../stars/repository.js';

export const DEFAULT_PAGE = 50;

const schema = { params: SessionsParams, querystring: SessionsQuery, response: { 200: SessionsResponse } };

export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const path of ['/api/v1/streaming/sessions/:campaignId/', '/api/v1/streaming/sessions/:campaignId']) {
      // The documented path ends in a slash; the same call without it answers the same.
      api.get(path, { preHandler: requireUser(ctx), schema }, async (request, reply) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        const { limit = DEFAULT_PAGE, cursor, sort, ...rest } = request.query;
        const query = { ...(await readListFilters(ctx, campaign.id, rest)), limit, cursor, sort };
        // By a funnel, each session's visits are matched step by step: a heavy read (server/http/heavy-reads.ts).
        const sessions = rest.funnel
          ? ctx.heavyReads.run(request, reply, (read) => pageSessions(read.db, campaign.id, query))
          : pageSessions(ctx.db, campaign.id, query);
        // The counts cover the whole campaign, whatever the filters.
        const [page, counts, storage] = await Promise.all([sessions, countSessions(ctx.db, campaign.id), ctx.storageQuota.use(campaign.id)]);
        const stars = await starredAmong(
          ctx.db,
          campaign.id,
          page.sessions.map((session) => session.sessionId),
        );
        page.sessions = page.sessions.map((session) => ({ ...session, starred: stars.has(session.sessionId) }));
        // The storage quota's use, so the page can say why new sessions are refused.
        return storage ? { ...page, counts, storage } : { ...page, counts };
      });
    }

    // One session and its stored events, e.g. for a visitor's erasure request. Another owner's
    // campaign answers like an unknown session, so ids cannot be probed.
    api.delete(
      '/api/v1/streaming/sessions/:campaignId/:sessionId',
      { preHandler: requireUser(ctx), schema: { params: SessionParams, response: { 200: Ok } } },
      async (request) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId).catch((error: unknown) => {
          if ((error as { statusCode?: number }).statusCode === 403) throw notFound(SESSION_NOT_FOUND);
          throw error;
        });
        if (!isSessionId(request.params.sessionId) || !(await deleteSession(ctx.db, campaign.id, request.params.sessionId))) throw notFound(SESSION_NOT_FOUND);
        ctx.live.sessionChanged(campaign.id, request.params.sessionId);
        return { ok: true as const };
      },
    );
  });
}
