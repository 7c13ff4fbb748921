import type { Selectable } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import type { SessionsTable } from '../db/schema.js';
import type { HeavyGate } from '../http/heavy-gate.js';
import { isHeavy } from '../replay/gate.js';
import { sessionComplete } from '../replay/stream.js';
import { chunkCost, chunkPieces } from '../replay/chunk-order.js';
import { findSession } from '../sessions/repository.js';
import { listChunks, readChunkData, type ChunkInfo } from '../storage/chunks.js';
import { withBatch, type HeldBatches } from '../../common/held-batches.js';
import type { UserByteBudget } from './budget.js';
import type { SseStream } from './streams.js';
import { WATCH_EVERY_MS } from './hub.js';

/** How often a live replay looks for new chunks and its end without being told (a lost notification, idle end). */
const LOOK_AGAIN_MS = 15_000;
/** What a live replay turned away by the heavy-replay gate waits before it reconnects. */
const BUSY_RETRY_MS = 5000;

type SessionRow = Selectable<SessionsTable>;

export interface LiveReplay {
  ctx: AppContext;
  gate: HeavyGate;
  budget: UserByteBudget;
  /** The signed-in owner: their share of the gate and their byte budget. */
  user: string;
  stream: SseStream;
  log: FastifyBaseLogger;
}

/**
 * Whether sending these stored chunks is heavy work: the session's stored JSON, in the share these
 * chunks hold of its events, is more than a heavy retrieval's, or the chunks overlap in time.
 */
function heavyBacklog(row: SessionRow, listed: ChunkInfo[]): boolean {
  const events = listed.reduce((n, chunk) => n + chunk.event_count, 0);
  const share = Number(row.event_count) > 0 ? Math.min(1, events / Number(row.event_count)) : 1;
  return isHeavy(Number(row.byte_count) * share, listed);
}

/**
 * Sends every stored chunk the client lacks, in seq order, one chunk at a time: each chunk is read
 * only once the user's byte budget has room for it and the socket took the one before; a heavy
 * backlog first takes a heavy-replay slot (the owner's share of them). Returns what the client
 * holds then, or null when the stream closed meanwhile (or the gate turned it away: it reconnects later).
 */
async function catchUp(live: LiveReplay, row: SessionRow, held: HeldBatches): Promise<HeldBatches | null> {
  const { ctx, stream } = live;
  const listed = await listChunks(ctx.db, row.campaign_id, row.id, held);
  if (!listed.length) return stream.closed ? null : held;
  let release = () => {};
  if (heavyBacklog(row, listed)) {
    const slot = await live.gate.enter(live.user, stream.signal);
    if (!slot) {
      stream.close(BUSY_RETRY_MS);
      return null;
    }
    release = slot;
  }
  try {
    for (const chunk of listed) {
      if (stream.closed) return null;
      const data = await readChunkData(ctx.db, row.campaign_id, row.id, chunk.seq);
      if (!data) continue;
      const done = await live.budget.take(live.user, chunkCost(data, chunk.event_count), stream.signal);
      if (!done) return null;
      try {
        await stream.write(`id: ${chunk.seq}\nevent: events\ndata: `, chunkPieces(data), '\n\n');
      } finally {
        done();
      }
      if (stream.closed) return null;
      held = withBatch(held, chunk.seq);
    }
    return held;
  } finally {
    release();
  }
}

/** Follows a session live on an open stream: its stored chunks, then new ones as they come, then its end. */
export function followReplay(live: LiveReplay, session: SessionRow, after: HeldBatches): void {
  const { ctx, stream } = live;
  const { campaign_id: campaignId, id: sessionId } = session;
  let row = session;
  let held = after;

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
        const sent = await catchUp(live, row, held);
        if (sent === null) return;
        held = sent;
        const now = await findSession(ctx.db, campaignId, sessionId);
        if (!now || now.closed_reason || sessionComplete(now, Date.now())) {
          // Whatever was stored before the end was seen goes out first (the closing note too).
          if (now && (await catchUp(live, now, held)) === null) return;
          await stream.write('event: ended\ndata: {}\n\n');
          stream.close();
          return;
        }
        row = now;
      } while (again && !stream.closed);
    } finally {
      busy = false;
    }
  };
  const poke = () =>
    void pump().catch((error: unknown) => {
      live.log.warn({ err: error }, 'live replay stream failed');
      stream.close();
    });

  stream.whenClosed(ctx.live.listenReplay(campaignId, sessionId, poke));
  ctx.live.watching(campaignId, sessionId);
  stream.every(WATCH_EVERY_MS, () => ctx.live.watching(campaignId, sessionId));
  // A missed message (a node's listening connection dropped) costs at most one look, every 15 s
  // (or every heartbeat, when heartbeats are slower).
  stream.every(Math.max(ctx.config.limits.liveHeartbeatMs, LOOK_AGAIN_MS), poke);
  poke();
}
