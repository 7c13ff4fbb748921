import { pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DemoQuery, ReplayParams } from '../../common/api/replay.js';
import { findSession } from '../sessions/repository.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/index.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { badRequest, notFound } from '../http/errors.js';
import { isSessionId } from '../storage/ids.js';
import { sendJsonStream } from './encoding.js';
import { acceptsGzip } from '../http/accept-encoding.js';
import { demoBodies } from './demo.js';
import { chunksInOrder, recordingStream, replayStream } from './stream.js';
import { enterWhileConnected, HeavyGate } from '../http/heavy-gate.js';
import { watchStalledReader } from './stalled-reader.js';
import { listChunks, type ChunkInfo } from '../storage/chunks.js';
import { recordingNotes } from '../notes/repository.js';

export const SESSION_NOT_FOUND = 'Session not found';
export const REPLAYS_BUSY = 'The server is busy preparing other large replays: try again in a few seconds';

/**
 * A retrieval is heavy when its session stored more event JSON than this, or its chunks overlap
 * in time (they are merged): only so many run at once, so a few of them cannot take the
 * node's memory or CPU from everyone else.
 */
const HEAVY_REPLAY_BYTES = 8 * 1024 * 1024;
/** Seconds a caller turned away is told to wait: a heavy retrieval takes a few seconds. */
const RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyInstance {
    /** The node's gate for heavy retrievals (tests read its counts). */
    replayGate: HeavyGate;
  }
}

export const isHeavy = (byteCount: number, chunks: ChunkInfo[]) => byteCount > HEAVY_REPLAY_BYTES || !chunksInOrder(chunks);

// Both answers are sent as bytes (the demo pre-compressed, a replay streamed from its chunks):
// their shapes are DemoResponse and ReplayResponse in common/api/replay.ts, and no response
// schema is declared, since Fastify would not serialise them through one anyway.
const demoSchema = { querystring: DemoQuery };
const replaySchema = { params: ReplayParams };

export async function registerReplay(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { heavyReplays, heavyReplaysPerOwner } = ctx.config.limits;
  // Each owner a share of the slots and half the queue: one owner's unread retrievals cannot take them all.
  const gate = new HeavyGate(heavyReplays, 2 * heavyReplays, { slots: heavyReplaysPerOwner, waiting: heavyReplays });
  app.decorate('replayGate', gate);
  const demoBody = demoBodies();

  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // Public: the landing page's demo player. Registered before the per-session route.
  api.get('/api/v1/replay/retrieve/demo', { schema: demoSchema }, async (request, reply) => {
    const body = await demoBody(request.query.isMobile === 'true' ? 'mobile' : 'desktop');
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('vary', 'Accept-Encoding')
      .header('cache-control', 'public, max-age=3600');
    if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(body.gzip);
    return reply.send(body.json);
  });

  /** The caller's session and its chunk list. */
  async function sessionAndChunks(request: FastifyRequest, params: { campaignId: string; sessionId: string }) {
    const session = await ownedSession(ctx.db, request, params);
    return { session, chunks: await listChunks(ctx.db, session.campaign_id, session.id) };
  }

  api.get(
    '/api/v1/replay/retrieve/:campaignId/:sessionId',
    { preHandler: requireUser(ctx), schema: replaySchema },
    async (request, reply) => {
      const { session, chunks } = await sessionAndChunks(request, request.params);
      const heavy = isHeavy(Number(session.byte_count), chunks);
      return sendGated(gate, request, reply, heavy, () => replayStream(ctx.db, session, Date.now(), { chunks }), (body) => {
        reply.header('cache-control', 'private, no-cache');
        return sendJsonStream(request, reply, body);
      });
    },
  );

  // One file to keep or pass on: always gzip (the name says .json.gz), whatever the caller accepts.
  api.get(
    '/api/v1/replay/export/:campaignId/:sessionId',
    { preHandler: requireUser(ctx), schema: replaySchema },
    async (request, reply) => {
      const { session, chunks } = await sessionAndChunks(request, request.params);
      const heavy = isHeavy(Number(session.byte_count), chunks);
      // The replay's notes travel with it (the file's optional `notes`).
      const notes = await recordingNotes(ctx.db, session.campaign_id, session.id);
      return sendGated(gate, request, reply, heavy, () => recordingStream(ctx.db, session, { chunks, notes }), (body) => {
        const gzip = createGzip();
        pipeline(body, gzip, (error) => {
          if (error) request.log.warn({ err: error }, 'recording export ended early');
        });
        return reply
          .header('content-type', 'application/gzip')
          .header('content-disposition', `attachment; filename="${recordingFileName(session.id)}"`)
          .header('cache-control', 'private, no-store')
          .send(gzip);
      });
    },
  );
}

/** The caller's session (the replay, export and share calls): 400 for a malformed id, 404 when their campaign has no such session. */
export async function ownedSession(db: Db, request: FastifyRequest, params: { campaignId: string; sessionId: string }) {
  const campaign = await ownedCampaign(db, request, params.campaignId);
  if (!isSessionId(params.sessionId)) throw badRequest('Invalid session id');
  const session = await findSession(db, campaign.id, params.sessionId);
  if (!session) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/** The name a downloaded recording is saved under. */
export const recordingFileName = (sessionId: string) => `tapedeck-${sessionId}.json.gz`;

/**
 * Streams a body built from a session's chunks, holding a heavy-replay slot (when it is heavy)
 * until the answer is sent, the caller goes away or stops reading; 503 when no slot frees up in
 * time. The slot is the signed-in owner's, else the address's (public share links).
 */
export async function sendGated(
  gate: HeavyGate,
  request: FastifyRequest,
  reply: FastifyReply,
  heavy: boolean,
  body: () => Readable,
  send: (body: Readable) => FastifyReply,
) {
  let release: (() => void) | undefined;
  if (heavy) {
    release = (await enterWhileConnected(gate, request.userId ?? request.ip, reply)) ?? undefined;
    if (!release) {
      return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ error: REPLAYS_BUSY });
    }
  }
  const stream = body();
  if (release) {
    const done = release;
    stream.once('close', done);
    watchStalledReader(reply.raw, request.server.ctx.config.limits.stalledReaderMs);
    reply.raw.once('close', () => {
      stream.destroy();
      done();
    });
  }
  return send(stream);
}
