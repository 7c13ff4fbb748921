import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Selectable } from 'kysely';
import type { CampaignsTable } from '../db/schema.js';

type Campaign = Selectable<CampaignsTable>;
import { HttpError, notFound } from '../http/errors.js';
import { hostMatchesDomains } from '../../src/lib/domains.js';
import { isCampaignId } from '../storage/ids.js';
import { MAX_BODY_BYTES } from '../../tracker/src/limits.js';
import { inflateBody, parseBatch } from './batch.js';
import { markEndedSessionsWithoutInput, storeBatch } from './store.js';
import { clientIp } from './visitor.js';
import { registerScripts } from './scripts.js';

export const INGEST_PATH = '/api/v1/ingest/:campaignId';

export const REFUSALS = {
  unknownCampaign: 'Unknown campaign',
  originMissing: 'Origin header required',
  originNotAllowed: 'Origin not allowed for this campaign',
  notStarted: 'Campaign has not started',
  ended: 'Campaign has ended',
} as const;

interface IngestState {
  campaign: Campaign | undefined;
  allowed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    ingest?: IngestState;
  }
}

/** The page's host (with port) when the Origin header is a web origin the campaign lists. */
function originAllowed(origin: string | undefined, domains: string): boolean {
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && hostMatchesDomains(url.host, domains);
  } catch {
    return false;
  }
}

/** The campaign's rules, checked before a byte of the body is read. */
function refusal(state: IngestState, origin: string | undefined, now: number): HttpError | null {
  const campaign = state.campaign;
  if (!campaign) return new HttpError(404, REFUSALS.unknownCampaign);
  if (!origin) return new HttpError(403, REFUSALS.originMissing);
  if (!state.allowed) return new HttpError(403, REFUSALS.originNotAllowed);
  if (now < campaign.start_date_time) return new HttpError(403, REFUSALS.notStarted);
  if (now > campaign.end_date_time) return new HttpError(403, REFUSALS.ended);
  return null;
}

async function registerIngestApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Bodies are raw bytes (gzip or JSON) sent as text/plain, a "simple" cross-origin request
  // that needs no preflight and works with keepalive fetch while a page unloads.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));

  // CORS only for origins the campaign allows; never credentials, never cookies.
  app.addHook('onRequest', async (request: FastifyRequest<{ Params: { campaignId: string } }>, reply) => {
    reply.header('Cache-Control', 'no-store').header('Vary', 'Origin');
    const { campaignId } = request.params;
    const campaign = isCampaignId(campaignId)
      ? await ctx.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).executeTakeFirst()
      : undefined;
    const origin = request.headers.origin;
    const allowed = campaign !== undefined && originAllowed(origin, campaign.domains);
    if (allowed) reply.header('Access-Control-Allow-Origin', origin as string);
    const state: IngestState = { campaign, allowed };
    request.ingest = state;
    if (request.method === 'POST') {
      const refused = refusal(state, origin, Date.now());
      if (refused) throw refused;
    }
  });

  app.options(INGEST_PATH, async (request, reply) => {
    const state = request.ingest as IngestState;
    if (!state.campaign) throw notFound(REFUSALS.unknownCampaign);
    if (!state.allowed) throw new HttpError(403, REFUSALS.originNotAllowed);
    return reply
      .status(204)
      .header('Access-Control-Allow-Methods', 'POST')
      .header('Access-Control-Allow-Headers', 'Content-Type')
      .header('Access-Control-Max-Age', '7200')
      .send();
  });

  app.post<{ Params: { campaignId: string }; Body: Buffer }>(INGEST_PATH, { bodyLimit: MAX_BODY_BYTES }, async (request) => {
    if (!Buffer.isBuffer(request.body)) throw new HttpError(400, 'Empty body');
    const batch = parseBatch(await inflateBody(request.body));
    const campaign = request.ingest?.campaign as Campaign;
    const { stored, admitted } = await storeBatch(ctx.db, campaign, batch, clientIp(request.ip));
    if (admitted) {
      await markEndedSessionsWithoutInput(ctx.db, campaign.id).catch((error: unknown) => request.log.warn({ err: error }, 'bot sweep failed'));
    }
    return { stored };
  });
}

export async function registerIngest(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerScripts(app, ctx);
  await app.register(async (scope) => registerIngestApi(scope, ctx));
}
