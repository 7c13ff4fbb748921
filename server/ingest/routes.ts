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
import { BatchPacker } from './pack-pool.js';
import type { PackedBatch } from './pack-batch.js';
import { SESSION_CLOSED_STATUS, isBatchRefusal, storeBatch, type StoreOutcome } from './store.js';
import { ShortWay } from './short-way.js';
import { KnownSessions } from './known-sessions.js';
import { GroupCommitter } from './group-commit.js';
import { isPostgres } from '../db/index.js';
import { markEndedSessionsWithoutInput, sessionCounters, type SessionState } from '../sessions/repository.js';
import { campaignForIngest, type IngestCampaign } from '../campaigns/repository.js';
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
} as const;

interface IngestState {
  campaign: Campaign | undefined;
  allowed: boolean;
  /** The campaign is a kept copy another node may have changed (PostgreSQL): the database checks it before it counts. */
  guess: boolean;
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

/**
 * Whether a campaign is due a bot sweep (sessions that ended without human input) after an
 * admission: at most once a minute per campaign on a node. The sessions list sweeps before it
 * reads, so a sweep per admission only cost ingest a statement per new session.
 */
export function sweepSchedule(everyMs = 60_000): (campaignId: string, now: number) => boolean {
  const last = new Map<string, number>();
  return (campaignId, now) => {
    const previous = last.get(campaignId);
    if (previous !== undefined && now - previous < everyMs) return false;
    if (last.size >= 10_000) last.clear(); // bounded: a forgotten campaign is only swept again
    last.set(campaignId, now);
    return true;
  };
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

/** The limits a batch passes once its session is known: new sessions per IP and per campaign, batches per session. */
function sessionLimits(app: FastifyInstance, ctx: AppContext) {
  const rates = ctx.config.rateLimits;
  const newPerIp = minuteLimit(app, 'new-session-ip', rates.newSessionsPerIp);
  const newPerCampaign = minuteLimit(app, 'new-session-campaign', rates.newSessionsPerCampaign);
  const perSession = minuteLimit(app, 'batch-session', rates.batchesPerSession);
  /** The session's row, read now (410 when it is closed). */
  const reread = async (campaign: Campaign, batch: PackedBatch): Promise<SessionState | undefined> => {
    const session = await sessionCounters(ctx.db, campaign.id, batch.sessionId);
    if (session?.closed_reason) throw new HttpError(SESSION_CLOSED_STATUS, session.closed_reason);
    return session;
  };
  return {
    reread,
    /** The row the batch is judged against, `kept` or read, after the limits that apply (a new session's too). */
    check: async (
      request: FastifyRequest,
      reply: FastifyReply,
      campaign: Campaign,
      batch: PackedBatch,
      kept: SessionState | undefined,
    ): Promise<SessionState | undefined> => {
      const session = kept ?? (await reread(campaign, batch));
      if (!session) {
        await newPerIp(request, reply, clientAddress(request));
        await newPerCampaign(request, reply, campaign.id);
        await app.storageQuota.admitNewSession(campaign.id);
      }
      await perSession(request, reply, `${campaign.id}/${batch.sessionId}`);
      return session;
    },
  };
}

/** What a request may do under the campaign (undefined: unknown); CORS only for the origins it allows. */
function judge(request: FastifyRequest, reply: FastifyReply, { row, guess }: IngestCampaign): IngestState {
  const origin = request.headers.origin;
  const allowed = row !== undefined && originAllowed(origin, row.domains);
  if (allowed) reply.header('Access-Control-Allow-Origin', origin as string);
  else reply.removeHeader('Access-Control-Allow-Origin');
  return { campaign: row, allowed, guess };
}

async function registerIngestApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const packer = new BatchPacker(ctx.config.limits.ingestWorkers);
  app.addHook('onReady', async () => packer.warm());
  app.addHook('onClose', async () => packer.close());
  const batchesPerIp = minuteLimit(app, 'batch-ip', ctx.config.rateLimits.batchesPerIp);
  const limits = sessionLimits(app, ctx);
  const bytes = ingestByteBudgets(app.byteCounter, ctx.config.rateLimits);
  const sweepDue = sweepSchedule();
  // Batches that arrive together share a transaction. SQLite has one writer: one group at a
  // time. PostgreSQL runs a few small groups at once, each on its own pooled connection.
  const committer = new GroupCommitter(ctx.db, isBatchRefusal, isPostgres(ctx.db) ? { concurrency: 4, maxGroup: 4 } : { concurrency: 1, maxGroup: 64 });

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
    const lookup = (fresh: boolean) => (isCampaignId(campaignId) ? campaignForIngest(ctx.db, campaignId, { fresh }) : { row: undefined, guess: false });
    let state = judge(request, reply, await lookup(false));
    // On PostgreSQL a kept campaign may predate another node's change: only a fresh read refuses.
    if (state.guess && refusal(state, request.headers.origin, Date.now())) state = judge(request, reply, await lookup(true));
    request.ingest = state;
    if (request.method === 'POST') {
      const refused = refusal(state, request.headers.origin, Date.now());
      if (refused) throw refused;
      await bytes.declared(request, reply, (state.campaign as Campaign).id);
    }
  });

  app.options(INGEST_PATH, { schema: { params: IngestParams } }, async (request, reply) => {
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

  const pack = (reply: FastifyReply, body: Buffer, campaign: Campaign) =>
    packer.pack(body, Date.now(), { captureConsole: campaign.capture_console !== 0 }).catch((error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 503) reply.header('retry-after', 2);
      throw error;
    });

  // PostgreSQL: batches take the short way (short-way.ts) when the database confirms what this node saw.
  const seen = new KnownSessions();
  const shortWay = isPostgres(ctx.db) ? new ShortWay(ctx, limits, seen, app.log) : undefined;

  /** The long way: the campaign and the session read afresh, then stored in a group commit (store.ts). */
  async function storeAfresh(request: FastifyRequest, reply: FastifyReply, batch: PackedBatch): Promise<{ outcome: StoreOutcome; campaign: Campaign }> {
    let state = request.ingest as IngestState;
    if (state.guess) {
      state = judge(request, reply, await campaignForIngest(ctx.db, (state.campaign as Campaign).id, { fresh: true }));
      const refused = refusal(state, request.headers.origin, Date.now());
      if (refused) throw refused;
    }
    const campaign = state.campaign as Campaign;
    // The campaign's console setting changed since the batch was checked: check it again.
    if (campaign.capture_console !== (request.ingest?.campaign as Campaign).capture_console) batch = await pack(reply, request.body as Buffer, campaign);
    // After the short way (which checked the limits), the row is read afresh. SQLite: the row this
    // process left a session in is the row (it is the only writer); the UPDATE that counts the
    // batch still checks it.
    const known = shortWay ? await limits.reread(campaign, batch) : await limits.check(request, reply, campaign, batch, seen.get(campaign.id, batch.sessionId));
    let outcome: StoreOutcome | undefined;
    try {
      outcome = await storeBatch(ctx.db, campaign, batch, clientAddress(request), ctx.config.limits, Date.now(), { committer, known });
    } finally {
      if (outcome?.state) seen.keep(campaign.id, batch.sessionId, outcome.state);
      else seen.forget(campaign.id, batch.sessionId);
    }
    return { outcome, campaign };
  }

  // The body is raw bytes, checked in a worker (common/ingest-batch.ts) with a reason per field.
  const schema = { params: IngestParams, response: { 200: IngestResponse, 202: IngestResponse } };
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(INGEST_PATH, { bodyLimit: MAX_BODY_BYTES, schema, onRequest: app.diskGuard.hook }, async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, 'Empty body');
      const checked = request.ingest?.campaign as Campaign;
      await bytes.received(request, reply, checked.id, request.body.length);
      const batch = await pack(reply, request.body, checked);
      const short = await shortWay?.store(request, reply, checked, batch);
      const { outcome, campaign } = short ? { outcome: short, campaign: checked } : await storeAfresh(request, reply, batch);
      // Here the batch is committed (its group's COMMIT is done): what follows may announce it.
      if (outcome.stored || outcome.admitted || outcome.closed) ctx.live.sessionChanged(campaign.id, batch.sessionId);
      // Heatmaps gather the batch's clicks in memory and write them later, in their own transaction.
      if (outcome.stored) ctx.heatmaps.fed(campaign.id, batch.sessionId, batch.moments, batch.heat);
      if (outcome.closed) throw new HttpError(SESSION_CLOSED_STATUS, outcome.closed);
      // Someone watches this session live: the tracker then sends every second for a while.
      if (ctx.live.isWatched(campaign.id, batch.sessionId)) reply.header(LIVE_HEADER, '1');
      if (outcome.admitted && sweepDue(campaign.id, Date.now())) {
        await markEndedSessionsWithoutInput(ctx.db, campaign.id).catch((error: unknown) => request.log.warn({ err: error }, 'bot sweep failed'));
      }
      // 202 tells the tracker, at the cost of reading a status, to stop capturing console messages.
      if (campaign.capture_console === 0) return reply.status(202).send({ stored: outcome.stored, console: false as const });
      return { stored: outcome.stored };
    });
}

export async function registerIngest(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerScripts(app, ctx);
  await app.register(async (scope) => registerIngestApi(scope, ctx));
}
