import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import type { SlicedRead } from '../db/sliced-read.js';
import { overBudget, ReadOverBudget, type OffLoopReads } from '../db/off-loop-reads.js';
import type { Funnel } from '../../common/api/funnels.js';
import type { Tally } from '../../common/funnels.js';
import type { Limits } from '../config.js';
import { enterWhileConnected, HeavyGate } from './heavy-gate.js';
import { HttpError } from './errors.js';
import { inTurns } from '../in-turns.js';

export const HEAVY_READS_PER_ACCOUNT = 'This account is already running as many heavy reads as it may: try again when they have finished';
export const HEAVY_READS_BUSY = 'The server is busy with other heavy reads: try again in a few seconds';
export const HEAVY_READ_TOO_LONG = 'This read took longer than the server allows: try a shorter range or fewer filters';
/** Seconds a caller turned away is told to wait: a heavy read takes a second or a few. */
const RETRY_AFTER_S = 5;
/** JavaScript over a read's rows runs at most this long before it lets other requests in. */
const SLICE_MS = 8;

/** What a heavy read works with. */
export interface HeavyRead extends SlicedRead {
  /** Where its SELECTs run: off the event loop (server/db/off-loop-reads.ts). Writes go to ctx.db. */
  db: Db;
  /** A funnel's tally over [from, to), counted whole in a worker thread. */
  funnelTally(campaignId: string, funnel: Funnel, from: number, to: number): Promise<Tally>;
}

/**
 * Heavy owner reads (funnel results, filtered heatmaps, insights over long ranges, the list by a
 * funnel): a node-wide number run at once, each account a share of them (past its share: 429;
 * past the node's queue: 503), each within a time budget (past it: 503), none holding the event
 * loop. Both answers carry Retry-After.
 */
export class HeavyReads {
  /** The node's slots (tests read its counts). */
  readonly gate: HeavyGate;
  readonly #budgetMs: number;

  constructor(
    private readonly reads: OffLoopReads,
    limits: Pick<Limits, 'heavyReads' | 'heavyReadsPerAccount' | 'heavyReadMs'>,
  ) {
    const { heavyReads, heavyReadsPerAccount } = limits;
    // An account runs its share and has as many waiting; a waiting read costs only its socket, so
    // the node lets four a slot wait (each account's turn comes, fewest held first).
    this.gate = new HeavyGate(heavyReads, 4 * heavyReads, { slots: heavyReadsPerAccount, waiting: heavyReadsPerAccount });
    this.#budgetMs = limits.heavyReadMs;
  }

  /** Runs `work` once the caller's account has a slot, within the budget. */
  async run<T>(request: FastifyRequest, reply: FastifyReply, work: (read: HeavyRead) => Promise<T>): Promise<T> {
    const owner = request.userId ?? request.ip;
    if (this.gate.ownerFull(owner)) throw new HttpError(429, HEAVY_READS_PER_ACCOUNT, RETRY_AFTER_S);
    const release = await enterWhileConnected(this.gate, owner, reply);
    if (!release) throw new HttpError(503, HEAVY_READS_BUSY, RETRY_AFTER_S);
    const budget = AbortSignal.timeout(this.#budgetMs);
    try {
      return await work({
        db: this.reads.reader(budget),
        each: (items, step) => inTurns(items, step, SLICE_MS, { signal: budget, stopped: () => new ReadOverBudget() }),
        funnelTally: (campaignId, funnel, from, to) => this.reads.funnelTally(campaignId, funnel, from, to, budget),
      });
    } catch (error) {
      if (!overBudget(error)) throw error;
      request.log.warn(`heavy read over its ${this.#budgetMs} ms budget: ${request.method} ${request.routeOptions.url}`);
      throw new HttpError(503, HEAVY_READ_TOO_LONG, RETRY_AFTER_S);
    } finally {
      release();
    }
  }

  warm(): Promise<void> {
    return this.reads.warm();
  }

  close(): Promise<void> {
    return this.reads.close();
  }
}
