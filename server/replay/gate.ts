import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { enterWhileConnected, type HeavyGate } from '../http/heavy-gate.js';
import type { ChunkInfo } from '../storage/chunks.js';
import { chunksInOrder } from './stream.js';
import { watchStalledReader } from './stalled-reader.js';

export const REPLAYS_BUSY = 'The server is busy preparing other large replays: try again in a few seconds';

/**
 * A retrieval is heavy when its session stored more event JSON than this, or its chunks overlap
 * in time (they are merged): only so many run at once, so a few of them cannot take the
 * node's memory or CPU from everyone else.
 */
const HEAVY_REPLAY_BYTES = 8 * 1024 * 1024;
/** Seconds a caller turned away is told to wait: a heavy retrieval takes a few seconds. */
const RETRY_AFTER_SECONDS = 5;

export const isHeavy = (byteCount: number, chunks: ChunkInfo[]) => byteCount > HEAVY_REPLAY_BYTES || !chunksInOrder(chunks);

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
