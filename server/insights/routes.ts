import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { Insights, InsightsParams, InsightsQuery } from '../../common/api/insights.js';
import { DAY_MS } from '../../common/insights.js';
import { requestedRange } from './range.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { readListFilters } from '../sessions/filters.js';
import { campaignInsights } from './repository.js';
import { hasSessionFilters } from '../sessions/query.js';

/** Insights over more days than this are a heavy read, whatever their filters (the default range is 30 days). */
const LONG_RANGE_MS = 31 * DAY_MS;

const schema = { params: InsightsParams, querystring: InsightsQuery, response: { 200: Insights } };

/** GET /api/v1/insights/{campaignId}: the campaign's dashboard over a range, owner only, like the sessions list. */
export async function registerInsights(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    api.get('/api/v1/insights/:campaignId', { config: { permission: 'sessions.watch' }, preHandler: requireUser(ctx), schema }, async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const { from, to, ...filters } = request.query;
      const range = requestedRange(from, to);
      const listed = await readListFilters(ctx, campaign.id, filters);
      // The errors section reads the error log whatever the filters.
      await ctx.afterStored.flushFor(campaign.id, 'errors');
      // Filtered (summarized whole from the sessions) or over a long range: a heavy read (server/http/heavy-reads.ts).
      if (!hasSessionFilters(listed) && range.to - range.from <= LONG_RANGE_MS) return campaignInsights(ctx.db, campaign.id, listed, range);
      return ctx.heavyReads.run(request, reply, (read) => campaignInsights(ctx.db, campaign.id, listed, range, Date.now(), read.db));
    });
  });
}
