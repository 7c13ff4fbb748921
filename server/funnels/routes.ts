import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import {
  Funnel,
  FUNNEL_LIMIT_REACHED,
  FUNNEL_NOT_FOUND,
  FunnelBody,
  FunnelChanges,
  FunnelList,
  FunnelParams,
  FunnelResult,
  FunnelResultQuery,
  FunnelsParams,
} from '../../common/api/funnels.js';
import { MAX_FUNNELS_PER_CAMPAIGN, stepsOf, type FunnelStep } from '../../common/funnels.js';
import { patternsFlaw } from '../../common/page-pattern.js';
import { requestedRange } from '../insights/range.js';
import { Ok } from '../../common/api/shared.js';
import { storable } from '../../common/scrub.js';
import { requireUser } from '../auth/tokens.js';
import { badRequest, HttpError, notFound, requiredText } from '../http/errors.js';
import { ownedCampaign, ownedCampaignWriter } from '../campaigns/ownership.js';
import { addFunnel, changeFunnel, deleteFunnel, findFunnel, listFunnels } from './repository.js';
import { funnelTally } from './days.js';

/** Funnels saved, changed and deleted per owner a minute. */
const FUNNEL_WRITES_PER_USER = 60;
const BODY_LIMIT = 8 * 1024;

const funnelName = (name: string) => requiredText(name, 'Funnel name is required');

const stepText = (text: string) => requiredText(text, 'A click step names a selector or a text, an event step an event');

/** Steps as stored: trimmed, storable; a page step is a page pattern. */
function funnelSteps(steps: FunnelStep[]): FunnelStep[] {
  return steps.map((step) => {
    if ('click' in step) return { click: stepText(step.click) };
    if ('event' in step) return { event: stepText(step.event) };
    const page = storable(step.page).trim();
    const flaw = patternsFlaw([page]);
    if (flaw) throw badRequest(flaw);
    return { page };
  });
}

/** A campaign's funnels and their results: owner only, as every campaign call. */
export async function registerFunnels(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const preHandler = requireUser(ctx);
  const writer = ownedCampaignWriter(app, ctx.db, 'funnel-user', FUNNEL_WRITES_PER_USER);

  api.get(
    '/api/v1/funnels/:campaignId',
    { config: { permission: 'sessions.watch' }, preHandler, schema: { params: FunnelsParams, response: { 200: FunnelList } } },
    async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      reply.header('cache-control', 'private, no-cache');
      return { funnels: await listFunnels(ctx.db, campaign.id) };
    },
  );

  api.post(
    '/api/v1/funnels/:campaignId',
    {
      config: { permission: 'funnels.write' },
      preHandler,
      bodyLimit: BODY_LIMIT,
      schema: { params: FunnelsParams, body: FunnelBody, response: { 201: Funnel } },
    },
    async (request, reply) => {
      const campaign = await writer(request, reply, request.params.campaignId);
      const { name, steps, withinMs } = request.body;
      const funnel = await addFunnel(ctx.db, campaign.id, { name: funnelName(name), steps: funnelSteps(steps), withinMs }, MAX_FUNNELS_PER_CAMPAIGN);
      if (!funnel) throw new HttpError(409, FUNNEL_LIMIT_REACHED);
      return reply.status(201).send(funnel);
    },
  );

  api.get(
    '/api/v1/funnels/:campaignId/:funnelId',
    { config: { permission: 'sessions.watch' }, preHandler, schema: { params: FunnelParams, response: { 200: Funnel } } },
    async (request) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const funnel = await findFunnel(ctx.db, campaign.id, request.params.funnelId);
      if (!funnel) throw notFound(FUNNEL_NOT_FOUND);
      return funnel;
    },
  );

  api.patch(
    '/api/v1/funnels/:campaignId/:funnelId',
    {
      config: { permission: 'funnels.write' },
      preHandler,
      bodyLimit: BODY_LIMIT,
      schema: { params: FunnelParams, body: FunnelChanges, response: { 200: Funnel } },
    },
    async (request, reply) => {
      const campaign = await writer(request, reply, request.params.campaignId);
      const { name, steps, withinMs } = request.body;
      const changes = { name: name === undefined ? undefined : funnelName(name), steps: steps && funnelSteps(steps), withinMs };
      const funnel = await changeFunnel(ctx.db, campaign.id, request.params.funnelId, changes);
      if (!funnel) throw notFound(FUNNEL_NOT_FOUND);
      return funnel;
    },
  );

  api.delete(
    '/api/v1/funnels/:campaignId/:funnelId',
    { config: { permission: 'funnels.write' }, preHandler, schema: { params: FunnelParams, response: { 200: Ok } } },
    async (request, reply) => {
      const campaign = await writer(request, reply, request.params.campaignId);
      if (!(await deleteFunnel(ctx.db, campaign.id, request.params.funnelId))) throw notFound(FUNNEL_NOT_FOUND);
      return { ok: true as const };
    },
  );

  api.get(
    '/api/v1/funnels/:campaignId/:funnelId/result',
    { config: { permission: 'sessions.watch' }, preHandler, schema: { params: FunnelParams, querystring: FunnelResultQuery, response: { 200: FunnelResult } } },
    async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const funnel = await findFunnel(ctx.db, campaign.id, request.params.funnelId);
      if (!funnel) throw notFound(FUNNEL_NOT_FOUND);
      const range = requestedRange(request.query.from, request.query.to);
      // What ingest's visit log holds is written first, so the result counts every stored batch.
      await ctx.afterStored.flushFor(campaign.id, 'visits');
      // A heavy read: thousands of sessions' visits (server/http/heavy-reads.ts).
      const tally = await ctx.heavyReads.run(request, reply, (read) => funnelTally(ctx.db, read, campaign.id, funnel, range.from, range.to, Date.now()));
      return { from: range.from, to: range.to, steps: stepsOf(tally) };
    },
  );
}
