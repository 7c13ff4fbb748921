import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import {
  Heatmap,
  HeatmapClicks,
  HeatmapClicksQuery,
  HeatmapPages,
  HeatmapPagesQuery,
  HeatmapParams,
  HeatmapPatterns,
  HeatmapQuery,
  type HeatmapSessionFilters,
} from '../../common/api/heatmaps.js';
import { patternsFlaw } from '../../common/page-pattern.js';
import { requestedRange } from '../insights/range.js';
import { requireUser } from '../auth/tokens.js';
import { badRequest } from '../http/errors.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { busiestPage, elementClickers, heatmapOf, heatmapPages, pagePatterns, savePagePatterns, type Range } from './repository.js';
import { bySessions, filteredHeatmap } from './filtered.js';
import { readListFilters } from '../sessions/filters.js';
import { hasSessionFilters, type SessionFilters } from '../sessions/query.js';

/** A call's range, as the insights dashboard's. */
const rangeOf = (from: number | undefined, to: number | undefined): Range => {
  const { from: start, to: end } = requestedRange(from, to);
  return { from: start, to: end };
};

/** The heatmaps API, owner only: pages, one page's heatmap, who clicked an element, page patterns. */
export async function registerHeatmaps(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    const owned = async (request: Parameters<typeof ownedCampaign>[1], campaignId: string) => {
      const campaign = await ownedCampaign(ctx.db, request, campaignId);
      // What this node gathered, and what deleted sessions fed, settled before reading.
      await ctx.afterStored.flushFor(campaign.id, 'heat');
      return campaign;
    };
    // The list's filters (sessions/list-filters.ts), or null when none narrows the sessions.
    const sessionFilters = async (campaignId: string, query: HeatmapSessionFilters): Promise<SessionFilters | null> => {
      const filters = await readListFilters(ctx, campaignId, query);
      return hasSessionFilters(filters) ? filters : null;
    };

    api.get(
      '/api/v1/heatmaps/:campaignId/pages',
      {
        config: { permission: 'sessions.watch' },
        preHandler: requireUser(ctx),
        schema: { params: HeatmapParams, querystring: HeatmapPagesQuery, response: { 200: HeatmapPages } },
      },
      async (request) => {
        const campaign = await owned(request, request.params.campaignId);
        return heatmapPages(ctx.db, campaign.id, rangeOf(request.query.from, request.query.to));
      },
    );

    api.get(
      '/api/v1/heatmaps/:campaignId',
      {
        config: { permission: 'sessions.watch' },
        preHandler: requireUser(ctx),
        schema: { params: HeatmapParams, querystring: HeatmapQuery, response: { 200: Heatmap } },
      },
      async (request, reply) => {
        const campaign = await owned(request, request.params.campaignId);
        const { path, device, from, to, ...rest } = request.query;
        const range = rangeOf(from, to);
        const filters = await sessionFilters(campaign.id, rest);
        const busiest = device && path ? null : await busiestPage(ctx.db, campaign.id, range, path);
        const page = { path: path ?? busiest?.path ?? '/', device: device ?? busiest?.device ?? 'desktop' };
        // Unfiltered, the day aggregates answer; a filter needs the matching sessions' own
        // contributions: a heavy read (server/http/heavy-reads.ts).
        if (filters) return ctx.heavyReads.run(request, reply, (read) => filteredHeatmap(read, campaign.id, page, range, filters));
        return heatmapOf(ctx.db, campaign.id, page.path, page.device, range);
      },
    );

    api.get(
      '/api/v1/heatmaps/:campaignId/clicks',
      {
        config: { permission: 'sessions.watch' },
        preHandler: requireUser(ctx),
        schema: { params: HeatmapParams, querystring: HeatmapClicksQuery, response: { 200: HeatmapClicks } },
      },
      async (request, reply) => {
        const campaign = await owned(request, request.params.campaignId);
        const { path, device, selector, from, to, ...rest } = request.query;
        const range = rangeOf(from, to);
        const filters = await sessionFilters(campaign.id, rest);
        const element = { path, device, selector };
        if (!filters) return elementClickers(ctx.db, campaign.id, element, range);
        return ctx.heavyReads.run(request, reply, (read) => elementClickers(read.db, campaign.id, element, range, bySessions(read.db, filters)));
      },
    );

    api.get(
      '/api/v1/heatmaps/:campaignId/patterns',
      { config: { permission: 'sessions.watch' }, preHandler: requireUser(ctx), schema: { params: HeatmapParams, response: { 200: HeatmapPatterns } } },
      async (request) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        return { patterns: await pagePatterns(ctx.db, campaign.id) };
      },
    );

    api.put(
      '/api/v1/heatmaps/:campaignId/patterns',
      {
        config: { permission: 'funnels.write' },
        preHandler: requireUser(ctx),
        schema: { params: HeatmapParams, body: HeatmapPatterns, response: { 200: HeatmapPatterns } },
      },
      async (request) => {
        const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
        const patterns = [...new Set(request.body.patterns)];
        const flaw = patternsFlaw(patterns);
        if (flaw) throw badRequest(flaw);
        await savePagePatterns(ctx.db, campaign.id, patterns);
        return { patterns };
      },
    );
  });
}
