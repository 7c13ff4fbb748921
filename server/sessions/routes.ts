import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { SessionParams, SessionsParams, SessionsQuery, SessionsResponse } from '../../common/api/sessions.js';
import type { SessionsQuery as SessionsQueryType } from '../../common/api/sessions.js';
import { Ok } from '../../common/api/shared.js';
import { storable } from '../../common/scrub.js';
import { splitPair } from '../../common/people.js';
import { requireUser } from '../auth/tokens.js';
import { notFound } from '../http/errors.js';
import { isSessionId } from '../storage/ids.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { SESSION_NOT_FOUND } from '../replay/routes.js';
import { funnelCondition } from '../funnels/filter.js';
import { countSessions, deleteSession, markEndedSessionsWithoutInput, pageSessions, type SessionFilters } from './repository.js';
import { starredAmong } from '../stars/repository.js';

export const DEFAULT_PAGE = 50;

/** A text filter as the columns hold text (no NUL: PostgreSQL refuses one), trimmed; empty is no filter. */
const filterText = (text: string | undefined) => storable(text).trim() || undefined;

/** The list's filters as the query gives them, as the repository takes them (the insights call takes the same). */
export function listFilters(query: Omit<SessionsQueryType, 'cursor' | 'limit' | 'sort'>): SessionFilters {
  // The funnel filters need the funnel: the routes read them (server/funnels/filter.ts).
  const { hasErrors, hasRageClicks, hasDeadClicks, hasQuickBacks, hasExcessiveScrolling, starred, trait, tag, funnel, step, outcome, ...rest } = query;
  const [search, url, browser, utm, error] = [rest.search, rest.url, rest.browser, rest.utm, rest.error].map(filterText);
  // People filters match what the page sent exactly: no trimming, but never a NUL (PostgreSQL refuses one).
  const [user, event] = [rest.user, rest.event].map((text) => (text === undefined ? undefined : storable(text)));
  const pair = (text: string | undefined) => (text === undefined ? undefined : (splitPair(storable(text)) ?? undefined));
  return {
    ...rest,
    search,
    url,
    browser,
    utm,
    error,
    user,
    event,
    trait: pair(trait),
    tag: pair(tag),
    hasErrors: hasErrors === 'true',
    hasRageClicks: hasRageClicks === 'true',
    hasDeadClicks: hasDeadClicks === 'true',
    hasQuickBacks: hasQuickBacks === 'true',
    hasExcessiveScrolling: hasExcessiveScrolling === 'true',
    starred: starred === 'true',
  };
}

const schema = { params: SessionsParams, querystring: SessionsQuery, response: { 200: SessionsResponse } };

export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const path of ['/api/v1/streaming/sessions/:campaignId/', '/api/v1/streaming/sessions/:campaignId']) {
      // The documented path ends in a slash; the same call without it answers the same.
      api.get(path, { preHandler: requireUser(ctx), schema }, async (request, reply) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        // Sessions that ended with no human input become bots now, not when the next visitor arrives.
        await markEndedSessionsWithoutInput(ctx.db, campaign.id);
        const { limit = DEFAULT_PAGE, cursor, sort, ...rest } = request.query;
        // Listing by an error's message: what ingest's error log holds is written first.
        if (rest.error) await ctx.errorLog.flush();
        // And by a funnel: what its visit log holds.
        if (rest.funnel) await ctx.funnelVisits.flush();
        const query = { ...listFilters(rest), funnelCondition: await funnelCondition(ctx.db, campaign.id, rest), limit, cursor, sort };
        // By a funnel, each session's visits are matched step by step: a heavy read (server/http/heavy-reads.ts).
        const sessions = rest.funnel
          ? ctx.heavyReads.run(request, reply, (read) => pageSessions(read.db, campaign.id, query))
          : pageSessions(ctx.db, campaign.id, query);
        // The counts cover the whole campaign, whatever the filters.
        const [page, counts, storage] = await Promise.all([
          sessions,
          countSessions(ctx.db, campaign.id),
          app.storageQuota.use(campaign.id),
        ]);
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
