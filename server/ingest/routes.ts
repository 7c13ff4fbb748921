import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { CampaignsTable } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { minuteLimit } from '../http/rate-limit.js';
import { hostMatchesDomains } from '../../common/domains.js';
import { isCampaignId } from '../storage/ids.js';
import { LIVE_HEADER, MAX_BODY_BYTES } from '../../common/limits.js';
import { BatchPacker, type PackedBatch } from './pack.js';
import { SESSION_CLOSED_STATUS } from '../recordings/index.js';
import type { SessionState } from '../recordings/batch.js';
import type { IngestCampaign } from '../campaigns/kept-campaigns.js';
import { packOptions, pageRules, trackerRules } from '../campaigns/recording-rules.js';
import { carryMatters, sessionCarry, type SessionCarry } from './recorded-pages.js';
import { IngestParams, IngestResponse } from '../../common/api/ingest.js';
import { clientAddress } from '../http/client-address.js';
import { registerScripts } from './scripts.js';
import { ingestByteBudgets } from './byte-budget.js';

type Campaign = Selectable<CampaignsTable>;

export const INGEST_PATH = '/api/v1/ingest/:campaignId';

export const REFUSALS = {
  unknownCampaign: 'Unknown campaign',
  originMissing: 'Origin header required',
  originNotAllowed: 'Origin not allowed for this campaign',
  notStarted: 'Campaign has not started',
  ended: 'Campaign has ended',
  noConsent: 'This campaign records a visitor only with their consent',
} as const;

/** Why ingest takes writes from other sites (http/origin.ts): the tracker posts from the visited page, checked against the campaign's domains instead. */
export const CROSS_SITE = "the tracker posts from the visited site's pages; the campaign's domains are checked instead";

/** Another node changes the campaign while the batch is written: the tracker sends it again. */
const CAMPAIGN_CHANGING = 'The campaign is being changed: try again in a moment';

interface IngestState {
  campaign: Campaign | undefined;
  allowed: boolean;
  /** The campaign is this node's cached copy, which another node may have changed (PostgreSQL): refusing takes a fresh read. */
  cached: boolean;
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

/**
 * The tracker marks batches sent with the visitor's consent (?consent=1): without it, a campaign
 * that asks for consent stores nothing, whatever sent the batch.
 */
const withoutConsent = (state: IngestState, request: FastifyRequest) =>
  state.campaign?.consent === 'required' && (request.query as { consent?: unknown }).consent !== '1';

/** The limits a batch passes once its session is looked up: new sessions per IP and per campaign, batches per session. */
function sessionLimits(app: FastifyInstance, ctx: AppContext) {
  const rates = ctx.config.rateLimits;
  const newPerIp = minuteLimit(app, 'new-session-ip', rates.newSessionsPerIp);
  const newPerCampaign = minuteLimit(app, 'new-session-campaign', rates.newSessionsPerCampaign);
  const perSession = minuteLimit(app, 'batch-session', rates.batchesPerSession);
  return async (request: FastifyRequest, reply: FastifyReply, campaign: Campaign, batch: PackedBatch, lastSeen: SessionState | undefined): Promise<void> => {
    if (!lastSeen) {
      await newPerIp(request, reply, clientAddress(request));
      await newPerCampaign(request, reply, campaign.id);
      await ctx.storageQuota.admitNewSession(campaign.id);
    }
    await perSession(request, reply, `${campaign.id}/${batch.sessionId}`);
  };
}

/** What a request may do under the campaign (undefined: unknown); CORS only for the origins it allows. */
function judge(request: FastifyRequest, reply: FastifyReply, { row, guess }: IngestCampaign): IngestState {
  const origin = request.headers.origin;
  const allowed = row !== undefined && originAllowed(origin, row.domains);
  if (allowed) reply.header('Access-Control-Allow-Origin', origin as string);
  else reply.removeHeader('Access-Control-Allow-Origin');
  return { campaign: row, allowed, cached: guess };
}

async function registerIngestApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const packer = new BatchPacker(ctx.config.limits.ingestWorkers);
  app.addHook('onReady', async () => packer.warm());
  app.addHook('onClose', async () => packer.close());
  const batchesPerIp = minuteLimit(app, 'batch-ip', ctx.config.rateLimits.batchesPerIp);
  const limits = sessionLimits(app, ctx);
  const bytes = ingestByteBudgets(ctx.byteCounter, ctx.config.rateLimits);

  // Bodies are raw bytes (gzip or JSON) sent as text/plain, a "simple" cross-origin request
  // that needs no preflight and works with keepalive fetch while a page unloads.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) => done(null, body));

  // CORS only for origins the campaign allows; never credentials, never cookies.
  app.addHook('onRequest', async (request: FastifyRequest<{ Params: { campaignId: string } }>, reply) => {
    // Retry-After and X-Tapedeck-Live must be readable by the tracker's cross-origin fetch.
    reply.header('Cache-Control', 'no-store').header('Vary', 'Origin').header('Access-Control-Expose-Headers', `Retry-After, ${LIVE_HEADER}`);
    // Counted first, before the campaign lookup and a byte of the body: the cheapest bound on one
    // sender, refused requests (unknown campaigns, other origins, preflights) included.
    await batchesPerIp(request, reply, clientAddress(request));
    const { campaignId } = request.params;
    const lookup = (fresh: boolean) => (isCampaignId(campaignId) ? ctx.keptCampaigns.forIngest(campaignId, { fresh }) : { row: undefined, guess: false });
    let state = judge(request, reply, await lookup(false));
    // On PostgreSQL a cached campaign may predate another node's change: only a fresh read refuses.
    if (state.cached && refusal(state, request.headers.origin, Date.now())) state = judge(request, reply, await lookup(true));
    request.ingest = state;
    if (request.method === 'POST') {
      const refused = refusal(state, request.headers.origin, Date.now());
      if (refused) throw refused;
      if (withoutConsent(state, request)) throw new HttpError(403, REFUSALS.noConsent);
      await bytes.declared(request, reply, (state.campaign as Campaign).id);
    }
  });

  app.options(INGEST_PATH, { config: { access: 'public' }, schema: { params: IngestParams } }, async (request, reply) => {
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

  // The campaign's recording rules, read by the tracker before it records (the same origin and
  // date checks as a batch): an edit reaches every site within a minute, no new snippet needed.
  app.get(INGEST_PATH, { config: { access: 'public' }, schema: { params: IngestParams } }, async (request, reply) => {
    const state = request.ingest as IngestState;
    const refused = refusal(state, request.headers.origin, Date.now());
    if (refused) throw refused;
    reply.header('Cache-Control', 'private, max-age=60');
    return trackerRules(state.campaign as Campaign);
  });

  /** `carried`: what the session's last batch left for this one (undefined: not known yet). */
  const pack = (request: FastifyRequest, reply: FastifyReply, body: Buffer, campaign: Campaign, carried?: SessionCarry) =>
    packer.pack(body, Date.now(), { ...packOptions(campaign), ...carried }, clientAddress(request)).catch((error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 503) reply.header('retry-after', 2);
      throw error;
    });

  /** The campaign as it is now, judged again: another node changed it since this node's copy was read (PostgreSQL). */
  async function judgeAfresh(request: FastifyRequest, reply: FastifyReply, id: string): Promise<Campaign> {
    const state = judge(request, reply, await ctx.keptCampaigns.forIngest(id, { fresh: true }));
    const refused = refusal(state, request.headers.origin, Date.now());
    if (refused) throw refused;
    if (withoutConsent(state, request)) throw new HttpError(403, REFUSALS.noConsent);
    return state.campaign as Campaign;
  }

  // The body is raw bytes, checked in a worker (common/ingest-batch.ts) with a reason per field.
  const schema = { params: IngestParams, response: { 200: IngestResponse, 202: IngestResponse } };
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(
      INGEST_PATH,
      { bodyLimit: MAX_BODY_BYTES, schema, onRequest: ctx.diskGuard.hook, config: { crossSite: CROSS_SITE, access: 'public' } },
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body)) throw new HttpError(400, 'Empty body');
        let campaign = request.ingest?.campaign as Campaign;
        await bytes.received(request, reply, campaign.id, request.body.length);
        let batch = await pack(request, reply, request.body, campaign);
        const lastSeen = await ctx.recordings.lastSeen(campaign.id, batch.sessionId);
        // The page a batch begins on is the one the session's last batch left it on: packed again
        // without the events before its first page load when that page is not recorded, or with
        // the nodes blocked there when its mutations touch them.
        const carried = lastSeen && sessionCarry(lastSeen, pageRules(campaign));
        if (carried && carryMatters(batch, carried)) batch = await pack(request, reply, request.body, campaign, carried);
        // A visit on pages the campaign does not record stores nothing, not even a session row (2xx: the tracker sends no more of it).
        if (batch.unrecorded && !lastSeen) return { stored: false };
        await limits(request, reply, campaign, batch, lastSeen);
        let outcome = await ctx.recordings.write(batch, { campaign, lastSeen });
        if (outcome.campaignChanged) {
          const judged = campaign;
          campaign = await judgeAfresh(request, reply, campaign.id);
          // Its console or page-address settings changed too: the batch is packed again under them.
          if (JSON.stringify(packOptions(campaign)) !== JSON.stringify(packOptions(judged)))
            batch = await pack(request, reply, request.body, campaign, lastSeen && sessionCarry(lastSeen, pageRules(campaign)));
          outcome = await ctx.recordings.write(batch, { campaign, lastSeen });
          if (outcome.campaignChanged) {
            reply.header('retry-after', 1);
            throw new HttpError(503, CAMPAIGN_CHANGING);
          }
        }
        // Here the batch is committed (its group's COMMIT is done): what follows may announce it (server/recordings/after-stored.ts).
        ctx.afterStored.stored({ campaignId: campaign.id, sessionId: batch.sessionId, seq: batch.seq, moments: batch.moments, heat: batch.heat, outcome });
        if (outcome.closed) throw new HttpError(SESSION_CLOSED_STATUS, outcome.closed);
        // Someone watches this session live: the tracker then sends every second for a while.
        if (ctx.live.isWatched(campaign.id, batch.sessionId)) reply.header(LIVE_HEADER, '1');
        // 202 tells the tracker, at the cost of reading a status, to stop capturing console messages.
        if (campaign.capture_console === 0) return reply.status(202).send({ stored: outcome.stored, console: false as const });
        return { stored: outcome.stored };
      },
    );
}

export async function registerIngest(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerScripts(app, ctx);
  await app.register(async (scope) => registerIngestApi(scope, ctx));
}
