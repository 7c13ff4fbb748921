import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { CampaignRow } from '../campaigns/repository.js';
import type { SessionState } from '../sessions/repository.js';
import type { PackedBatch } from './pack-batch.js';
import { KnownSessionWriter, KnownSessions } from './known-sessions.js';
import { NewSessionWriter } from './new-sessions.js';
import type { ShortWayLog } from './statement-groups.js';
import { capReached, firstBatchRow, updateVerdict, type StoreOutcome } from './store.js';
import { clientIp } from './visitor.js';

/** The rate limits a batch passes once its session is looked up (routes.ts). */
export interface BatchLimits {
  /** The session's row, `kept` or read (410 if it is closed), after the limits that apply. */
  check(request: FastifyRequest, reply: FastifyReply, campaign: CampaignRow, batch: PackedBatch, kept: SessionState | undefined): Promise<SessionState | undefined>;
}

/** A new session's counters, before its first batch. */
const NOTHING_COUNTED = { byte_count: 0, event_count: 0, batch_count: 0 };

/**
 * Ingest's short way on PostgreSQL: a batch is stored by a statement shared with the batches
 * that arrived together, with no transaction around it, against the session's row as this node
 * last saw it (or read it now) and the campaign as it kept it; the database checks both. A batch
 * it does not store (undefined) takes the long way (store.ts), which reads everything afresh.
 * On SQLite the long way is already short: one writer, in-process.
 */
export class ShortWay {
  readonly #known: KnownSessionWriter;
  readonly #starter: NewSessionWriter;

  constructor(
    private readonly ctx: AppContext,
    private readonly limits: BatchLimits,
    /** The sessions this node counted or read lately (the long way keeps them current too). */
    private readonly seen: KnownSessions,
    log: ShortWayLog,
  ) {
    this.#known = new KnownSessionWriter(ctx.db, ctx.config.limits, log);
    this.#starter = new NewSessionWriter(ctx.db, log);
  }

  /** Stores the batch the short way, after the limits that apply; undefined: not stored, the limits checked. */
  async store(request: FastifyRequest, reply: FastifyReply, campaign: CampaignRow, batch: PackedBatch): Promise<StoreOutcome | undefined> {
    const row = await this.limits.check(request, reply, campaign, batch, this.seen.get(campaign.id, batch.sessionId));
    return row ? this.#writeKnown(campaign, batch, row) : this.#startNew(request, campaign, batch);
  }

  /** A batch of a session as `seen`, counted against that row; undefined when the database did not confirm the row. */
  async #writeKnown(campaign: CampaignRow, batch: PackedBatch, seen: SessionState): Promise<StoreOutcome | undefined> {
    const caps = this.ctx.config.limits;
    let guess: SessionState | undefined = seen;
    // A second try with the row as the statement found it: another node wrote the session between.
    for (let tries = 0; tries < 2 && guess && !guess.closed_reason && !capReached(guess, batch, caps); tries++) {
      const write = await this.#known.write(campaign, batch, guess, Date.now());
      if (write.applied) {
        this.seen.keep(campaign.id, batch.sessionId, write.row);
        await updateVerdict(this.ctx.db, campaign.id, batch.sessionId, write.row);
        return { stored: true, admitted: false };
      }
      guess = write.current;
    }
    return undefined;
  }

  /** The first batch of a session not stored yet: the session started with it; undefined when it was not. */
  async #startNew(request: FastifyRequest, campaign: CampaignRow, batch: PackedBatch): Promise<StoreOutcome | undefined> {
    if (!batch.info || capReached(NOTHING_COUNTED, batch, this.ctx.config.limits)) return undefined;
    const row = firstBatchRow(campaign, batch, batch.info, clientIp(request.ip), Date.now());
    const started = await this.#starter.start(campaign, batch, row);
    if (!started) return undefined;
    this.seen.keep(campaign.id, batch.sessionId, started);
    return { stored: true, admitted: true };
  }
}
