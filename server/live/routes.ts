import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { ReplayParams } from '../../common/api/replay.js';
import { SessionsParams } from '../../common/api/sessions.js';
import { LiveQuery } from '../../common/api/live.js';
import { NONE_HELD, parseHeld, type HeldBatches } from '../../common/held-batches.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { badRequest } from '../http/errors.js';
import { ownedCampaignSession } from '../sessions/ownership.js';
import { WATCH_EVERY_MS } from './hub.js';
import { followReplay } from './replay-feed.js';
import { BAD_AFTER, BAD_LAST_EVENT_ID } from './streams.js';

export const LIVE_LIST_PATH = '/api/v1/streaming/sessions/:campaignId/live';
export const LIVE_REPLAY_PATH = '/api/v1/replay/live/:campaignId/:sessionId';

/** What the client holds: the Last-Event-ID header's seq (or held batches), else `after`, else nothing. */
function heldByClient(headers: FastifyRequest['headers'], after: string | undefined): HeldBatches {
  const header = headers['last-event-id'];
  if (header !== undefined) {
    const held = typeof header === 'string' ? parseHeld(header) : null;
    if (!held) throw badRequest(BAD_LAST_EVENT_ID);
    return held;
  }
  if (after === undefined) return NONE_HELD;
  const held = parseHeld(after);
  if (!held) throw badRequest(BAD_AFTER);
  return held;
}

export async function registerLive(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { liveStreams: streams, liveBudget: budget } = ctx;
  // Before the server stops listening and waits for requests in flight: live streams never end on their own.
  app.addHook('preClose', async () => streams.closeAll());

  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    LIVE_LIST_PATH,
    { config: { permission: 'sessions.watch' }, preHandler: requireUser(ctx), schema: { params: SessionsParams } },
    async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      const stream = streams.start(request, reply, campaign.workspace_id);
      const stop = ctx.live.listenList(campaign.id, {
        session: (session) => void stream.write(`event: session\ndata: ${JSON.stringify(session)}\n\n`),
        deleted: (id) => void stream.write(`event: deleted\ndata: ${JSON.stringify({ id })}\n\n`),
      });
      stream.whenClosed(stop);
      ctx.live.listening(campaign.id);
      stream.every(WATCH_EVERY_MS, () => ctx.live.listening(campaign.id));
      return reply;
    },
  );

  api.get(
    LIVE_REPLAY_PATH,
    { config: { permission: 'sessions.watch' }, preHandler: requireUser(ctx), schema: { params: ReplayParams, querystring: LiveQuery } },
    async (request, reply) => {
      const { campaign, session } = await ownedCampaignSession(ctx.db, request, request.params);
      const after = heldByClient(request.headers, request.query.after);
      const stream = streams.start(request, reply, campaign.workspace_id);
      followReplay({ ctx, gate: ctx.replayGates.owners, budget, user: request.userId as string, stream, log: request.log }, session, after);
      return reply;
    },
  );
}
