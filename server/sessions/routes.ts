import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import type { Executor } from '../db/executor.js';
import { SessionParams, SessionsParams, SessionsQuery, SessionsResponse } from '../../common/api/sessions.js';
import { Ok } from '../../common/api/shared.js';
import { MAX_MATCHED_COUNT } from '../../common/session-list.js';
import { requireUser } from '../auth/tokens.js';
import { notFound } from '../http/errors.js';
import { audit } from '../teams/audit.js';
import { isSessionId } from '../storage/ids.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { SESSION_NOT_FOUND } from './ownership.js';
import { countMatching, countSessions, deleteSession, pageSessions } from './repository.js';
import { hasSessionFilters, type SessionFilters, type SessionQuery } from './query.js';
import { readListFilters } from './filters.js';
import { starredAmong } from '../stars/repository.js';

export const DEFAULT_PAGE = 50;

const schema = { params: SessionsParams, querystring: SessionsQuery, response: { 200: SessionsResponse } };

/**
 * One page, and on a narrowed list's first page (`firstPageOf`: its filters) how many sessions
 * the list matches, for "5 of 7 sessions": a page that holds them all says so without a count.
 */
async function pageWithMatched(db: Executor, campaignId: string, query: SessionQuery, firstPageOf?: SessionFilters) {
  const page = await pageSessions(db, campaignId, query);
  if (!firstPageOf || !hasSessionFilters(firstPageOf)) return { ...page, matched: undefined };
  const matched = page.nextCursor === null ? page.sessions.length : await countMatching(db, campaignId, firstPageOf, MAX_MATCHED_COUNT);
  return { ...page, matched };
}

export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const path of ['/api/v1/streaming/sessions/:campaignId/', '/api/v1/streaming/sessions/:campaignId']) {
      // The documented path ends in a slash; the same call without it answers the same.
      api.get(path, { config: { permission: 'sessions.watch' }, preHandler: requireUser(ctx), schema }, async (request, reply) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        const { limit = DEFAULT_PAGE, cursor, sort, ...rest } = request.query;
        const filters = await readListFilters(ctx, campaign.id, rest);
        const query = { ...filters, limit, cursor, sort };
        const read = (db: Executor) => pageWithMatched(db, campaign.id, query, cursor === undefined ? filters : undefined);
        // By a funnel, each session's visits are matched step by step: a heavy read (server/http/heavy-reads.ts).
        const sessions = rest.funnel ? ctx.heavyReads.run(request, reply, (heavy) => read(heavy.db)) : read(ctx.db);
        // The counts cover the whole campaign, whatever the filters; `matched`, the narrowed list.
        const [page, counts, storage] = await Promise.all([sessions, countSessions(ctx.db, campaign.id), ctx.storageQuota.use(campaign.id)]);
        const stars = await starredAmong(
          ctx.db,
          campaign.id,
          page.sessions.map((session) => session.sessionId),
        );
        page.sessions = page.sessions.map((session) => ({ ...session, starred: stars.has(session.sessionId) }));
        // The storage quota's use, so the page can say why new sessions are refused.
        const { matched, ...rows } = page;
        return { ...rows, counts, ...(matched === undefined ? {} : { matched }), ...(storage ? { storage } : {}) };
      });
    }

    // One session and its stored events, e.g. for a visitor's erasure request. A campaign of
    // another workspace answers like an unknown campaign, so ids cannot be probed.
    api.delete(
      '/api/v1/streaming/sessions/:campaignId/:sessionId',
      { config: { permission: 'data.erase' }, preHandler: requireUser(ctx), schema: { params: SessionParams, response: { 200: Ok } } },
      async (request) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        if (!isSessionId(request.params.sessionId) || !(await deleteSession(ctx.db, campaign.id, request.params.sessionId))) throw notFound(SESSION_NOT_FOUND);
        await audit(ctx.db, request, campaign.workspace_id, { action: 'session.erased', target: `session:${campaign.id}/${request.params.sessionId}` });
        ctx.live.sessionChanged(campaign.id, request.params.sessionId);
        return { ok: true as const };
      },
    );
  });
}
