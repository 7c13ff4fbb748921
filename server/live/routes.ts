import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { ReplayParams } from '../../common/api/replay.js';
import { SessionsParams } from '../../common/api/sessions.js';
import { LiveQuery } from '../../common/api/live.js';
import { MAX_SEQ } from '../../common/limits.js';
import { requireUser } from '../auth/tokens.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { HttpError, badRequest } from '../http/errors.js';
import { ownedSession } from '../replay/routes.js';
import { inTimeOrder, sessionComplete } from '../replay/stream.js';
import { findSession } from '../sessions/repository.js';
import { listChunks, readChunkEntries } from '../storage/chunks.js';
import { WATCH_EVERY_MS } from './hub.js';

export const LIVE_LIST_PATH = '/api/v1/streaming/sessions/:campaignId/live';
export const LIVE_REPLAY_PATH = '/api/v1/replay/live/:campaignId/:sessionId';

export const TOO_MANY_STREAMS_USER = 'Too many live views open: close some tabs and try again';
export const TOO_MANY_STREAMS_NODE = 'The server is following too many live views: try again in a few seconds';
export const BAD_LAST_EVENT_ID = 'Invalid Last-Event-ID';

/** What a browser's EventSource waits before reconnecting: normally, and when a node stops. */
const RETRY_MS = 3000;
const SHUTDOWN_RETRY_MS = 1000;
/** How often a live replay looks for new chunks and its end without being told (a lost notification, idle end). */
const LOOK_AGAIN_MS = 15_000;
/** A client this far behind (bytes queued in the socket) is cut off; it reconnects with Last-Event-ID. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** An open text/event-stream response: heartbeats, back-pressure, and its place in the node's counts. */
class SseStream {
  closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly onEnd: (() => void)[] = [];

  constructor(private readonly reply: FastifyReply) {
    reply.raw.on('close', () => this.end());
  }

  /** Writes a message; resolves when the socket takes more (or the stream closed). */
  async write(text: string): Promise<void> {
    if (this.closed) return;
    const raw = this.reply.raw;
    if (raw.write(text)) return;
    if (raw.writableLength > MAX_QUEUED_BYTES) return this.close();
    await new Promise<void>((resolve) => {
      const done = () => {
        raw.off('drain', done);
        raw.off('close', done);
        resolve();
      };
      raw.on('drain', done);
      raw.on('close', done);
    });
  }

  every(ms: number, tick: () => void): void {
    const timer = setInterval(tick, ms);
    timer.unref();
    this.timers.push(timer);
  }

  whenClosed(callback: () => void): void {
    if (this.closed) callback();
    else this.onEnd.push(callback);
  }

  /** Ends the response, after a retry hint when given. */
  close(retryMs?: number): void {
    if (this.closed) return;
    if (retryMs !== undefined) this.reply.raw.write(`retry: ${retryMs}\n\n`);
    this.reply.raw.end();
    this.end();
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const callback of this.onEnd.splice(0)) callback();
  }
}

/** The node's open streams, counted per user and in all (both bounded), closed on shutdown. */
class StreamRegistry {
  private readonly open = new Set<SseStream>();
  private readonly perUser = new Map<string, number>();
  private closing = false;

  constructor(private readonly ctx: AppContext) {}

  /** Checks the caps, then turns the reply into an event stream (retry hint first, heartbeats). */
  start(request: FastifyRequest, reply: FastifyReply): SseStream {
    const { liveStreamsPerUser, liveStreamsPerNode, liveHeartbeatMs } = this.ctx.config.limits;
    const user = request.userId as string;
    if (this.closing || this.open.size >= liveStreamsPerNode) {
      reply.header('retry-after', '5');
      throw new HttpError(503, TOO_MANY_STREAMS_NODE);
    }
    const mine = this.perUser.get(user) ?? 0;
    if (mine >= liveStreamsPerUser) throw new HttpError(429, TOO_MANY_STREAMS_USER);
    this.perUser.set(user, mine + 1);
    reply.hijack();
    const stream = new SseStream(reply);
    this.open.add(stream);
    stream.whenClosed(() => {
      this.open.delete(stream);
      const left = (this.perUser.get(user) ?? 1) - 1;
      if (left > 0) this.perUser.set(user, left);
      else this.perUser.delete(user);
    });
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-accel-buffering': 'no',
    });
    reply.raw.write(`retry: ${RETRY_MS}\n\n`);
    stream.every(liveHeartbeatMs, () => void stream.write(': hb\n\n'));
    return stream;
  }

  /** Shutdown: every stream gets a short retry hint and is closed, so its client reconnects elsewhere. */
  closeAll(): void {
    this.closing = true;
    for (const stream of [...this.open]) stream.close(SHUTDOWN_RETRY_MS);
  }

  get size(): number {
    return this.open.size;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The node's open live streams (tests read the count). */
    liveStreams: { readonly size: number };
  }
}

/** Where a live replay starts: after the Last-Event-ID header's seq, else after `after`, else from the start. */
function startAfter(headers: FastifyRequest['headers'], after: number | undefined): number {
  const header = headers['last-event-id'];
  if (header !== undefined) {
    const seq = Number(header);
    if (typeof header !== 'string' || !/^\d{1,10}$/.test(header) || seq > MAX_SEQ + 1) throw badRequest(BAD_LAST_EVENT_ID);
    return seq;
  }
  return after ?? -1;
}

export async function registerLive(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const streams = new StreamRegistry(ctx);
  app.decorate('liveStreams', streams);
  // Before the server stops listening and waits for requests in flight: live streams never end on their own.
  app.addHook('preClose', async () => streams.closeAll());

  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(LIVE_LIST_PATH, { preHandler: requireUser(ctx), schema: { params: SessionsParams } }, async (request, reply) => {
    const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
    const stream = streams.start(request, reply);
    const stop = ctx.live.listenList(campaign.id, {
      session: (session) => void stream.write(`event: session\ndata: ${JSON.stringify(session)}\n\n`),
      deleted: (id) => void stream.write(`event: deleted\ndata: ${JSON.stringify({ id })}\n\n`),
    });
    stream.whenClosed(stop);
    ctx.live.listening(campaign.id);
    stream.every(WATCH_EVERY_MS, () => ctx.live.listening(campaign.id));
    return reply;
  });

  api.get(LIVE_REPLAY_PATH, { preHandler: requireUser(ctx), schema: { params: ReplayParams, querystring: LiveQuery } }, async (request, reply) => {
    const session = await ownedSession(ctx.db, request, request.params);
    let last = startAfter(request.headers, request.query.after);
    const stream = streams.start(request, reply);
    const { campaign_id: campaignId, id: sessionId } = session;

    /** Sends every stored chunk after `last`, in seq order, a bounded page at a time; false when the stream closed meanwhile. */
    const catchUp = async (): Promise<boolean> => {
      const listed = await listChunks(ctx.db, campaignId, sessionId, last);
      for await (const { seq, sorted, json } of readChunkEntries(ctx.db, campaignId, sessionId, listed)) {
        if (stream.closed) return false;
        await stream.write(`id: ${seq}\nevent: events\ndata: ${inTimeOrder(json, sorted)}\n\n`);
        last = seq;
      }
      return !stream.closed;
    };

    // One pass at a time; a poke during a pass runs one more after it.
    let busy = false;
    let again = false;
    const pump = async (): Promise<void> => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          if (!(await catchUp())) return;
          const row = await findSession(ctx.db, campaignId, sessionId);
          if (!row || row.closed_reason || sessionComplete(row, Date.now())) {
            // Whatever was stored before the end was seen goes out first (the closing note too).
            if (row && !(await catchUp())) return;
            await stream.write('event: ended\ndata: {}\n\n');
            stream.close();
            return;
          }
        } while (again && !stream.closed);
      } finally {
        busy = false;
      }
    };
    const poke = () =>
      void pump().catch((error: unknown) => {
        request.log.warn({ err: error }, 'live replay stream failed');
        stream.close();
      });

    stream.whenClosed(ctx.live.listenReplay(campaignId, sessionId, poke));
    ctx.live.watching(campaignId, sessionId);
    stream.every(WATCH_EVERY_MS, () => ctx.live.watching(campaignId, sessionId));
    // A missed message (a node's listening connection dropped) costs at most one look, every 15 s
    // (or every heartbeat, when heartbeats are slower).
    stream.every(Math.max(ctx.config.limits.liveHeartbeatMs, LOOK_AGAIN_MS), poke);
    poke();
    return reply;
  });
}
