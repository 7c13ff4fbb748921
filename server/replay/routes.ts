import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DemoQuery, ReplayParams } from '../../common/api/replay.js';
import type { AppContext } from '../context.js';
import { requireUser } from '../auth/tokens.js';
import { sendJsonStream } from './encoding.js';
import { acceptsGzip } from '../http/accept-encoding.js';
import { demoBodies } from './demo.js';
import { recordingStream, replayStream } from './stream.js';
import { listChunks } from '../storage/chunks.js';
import { ownedCampaignSession } from '../sessions/ownership.js';
import { audit } from '../teams/audit.js';
import { isHeavy, sendGated } from './gate.js';
import { recordingNotes } from '../notes/repository.js';

// Both answers are sent as bytes (the demo pre-compressed, a replay streamed from its chunks):
// their shapes are DemoResponse and ReplayResponse in common/api/replay.ts, and no response
// schema is declared, since Fastify would not serialise them through one anyway.
const demoSchema = { querystring: DemoQuery };
const replaySchema = { params: ReplayParams };

export async function registerReplay(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const gate = ctx.replayGates.owners;
  const demoBody = demoBodies();

  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // Public: the landing page's demo player. Registered before the per-session route.
  api.get('/api/v1/replay/retrieve/demo', { config: { access: 'public' }, schema: demoSchema }, async (request, reply) => {
    const body = await demoBody(request.query.isMobile === 'true' ? 'mobile' : 'desktop');
    reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'Accept-Encoding').header('cache-control', 'public, max-age=3600');
    if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(body.gzip);
    return reply.send(body.json);
  });

  /** The caller's session and its chunk list. */
  async function sessionAndChunks(request: FastifyRequest, params: { campaignId: string; sessionId: string }) {
    const { campaign, session } = await ownedCampaignSession(ctx.db, request, params);
    return { campaign, session, chunks: await listChunks(ctx.db, session.campaign_id, session.id) };
  }

  api.get(
    '/api/v1/replay/retrieve/:campaignId/:sessionId',
    { config: { permission: 'sessions.watch' }, preHandler: requireUser(ctx), schema: replaySchema },
    async (request, reply) => {
      const { session, chunks } = await sessionAndChunks(request, request.params);
      const heavy = isHeavy(Number(session.byte_count), chunks);
      return sendGated(
        gate,
        request,
        reply,
        heavy,
        () => replayStream(ctx.db, session, Date.now(), { chunks }),
        (body) => {
          reply.header('cache-control', 'private, no-cache');
          return sendJsonStream(request, reply, body);
        },
      );
    },
  );

  // One file to keep or pass on: always gzip (the name says .json.gz), whatever the caller accepts.
  api.get(
    '/api/v1/replay/export/:campaignId/:sessionId',
    { config: { permission: 'sessions.download' }, preHandler: requireUser(ctx), schema: replaySchema },
    async (request, reply) => {
      const { campaign, session, chunks } = await sessionAndChunks(request, request.params);
      const heavy = isHeavy(Number(session.byte_count), chunks);
      await audit(ctx.db, request, campaign.workspace_id, { action: 'recording.downloaded', target: `session:${campaign.id}/${session.id}` });
      // The replay's notes travel with it (the file's optional `notes`).
      const notes = await recordingNotes(ctx.db, session.campaign_id, session.id);
      return sendGated(
        gate,
        request,
        reply,
        heavy,
        () => recordingStream(ctx.db, session, { chunks, notes }),
        (body) => {
          const gzip = createGzip();
          pipeline(body, gzip, (error) => {
            if (error) request.log.warn({ err: error }, 'recording export ended early');
          });
          return reply
            .header('content-type', 'application/gzip')
            .header('content-disposition', `attachment; filename="${recordingFileName(session.id)}"`)
            .header('cache-control', 'private, no-store')
            .send(gzip);
        },
      );
    },
  );
}

/** The name a downloaded recording is saved under. */
export const recordingFileName = (sessionId: string) => `tapedeck-${sessionId}.json.gz`;
