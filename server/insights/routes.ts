import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { Insights, InsightsParams, InsightsQuery } from '../../common/api/insights.js';
import { requestedRange } from './range.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { markEndedSessionsWithoutInput } from '../recordings/bot-sweep.js';
import { listFilters } from '../sessions/routes.js';
import { campaignInsights } from './repository.js';
import { funnelCondition } from '../funnels/filter.js';

const schema = { params: InsightsParams, querystring: InsightsQuery, response: { 200: Insights } };

/** GET /api/v1/insights/{campaignId}: the campaign's dashboard over a range, owner only, like the sessions list. */
export async function registerInsights(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // What the error log holds is written before the database closes.
  app.addHook('onClose', async () => ctx.errorLog.flush().catch(() => undefined));
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    api.get('/api/v1/insights/:campaignId', { preHandler: requireUser(ctx), schema }, async (request) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const { from, to, ...filters } = request.query;
      const range = requestedRange(from, to);
      // As the list does: sessions that ended with no human input count as bots now.
      await markEndedSessionsWithoutInput(ctx.db, campaign.id);
      await ctx.errorLog.flush();
      if (filters.funnel) await ctx.funnelVisits.flush();
      const funnel = await funnelCondition(ctx.db, campaign.id, filters);
      return campaignInsights(ctx.db, campaign.id, { ...listFilters(filters), funnelCondition: funnel }, range);
    });
  });
}
