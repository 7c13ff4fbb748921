import type { FastifyBaseLogger } from 'fastify';
import type { Moment } from '../../common/session-facts.js';
import type { HeatRecord } from '../heatmaps/records.js';
import type { WriteOutcome } from './batch.js';

// The one seam after a stored batch. Ingest calls `stored` once a batch is committed; the
// projections registered in buildApp (live, errors, heat, visits) take what they want from it
// without I/O, and write later (buffered-writer.ts). A read calls `flushFor` with what it reads,
// so it sees every batch stored before it; `close` writes what waits as the app closes.

/** What a read may need settled first. */
export type Read = 'live' | 'errors' | 'heat' | 'visits' | 'verdicts';

/** A committed batch, as the projections see it. */
export interface StoredBatch {
  campaignId: string;
  sessionId: string;
  seq: number;
  moments: Moment[];
  heat: HeatRecord[];
  outcome: WriteOutcome;
}

export interface Projection {
  /** Takes a committed batch (stored, or only admitted or closed): no I/O, never throws at ingest. */
  stored?(batch: StoredBatch): void;
  /** Makes what a read of the campaign sees current. */
  flush?(campaignId: string): Promise<void>;
  /** Writes what waits (the app closes). */
  close?(): Promise<void>;
}

export class AfterStored {
  private readonly projections = new Map<Read, Projection>();

  constructor(private readonly log: FastifyBaseLogger) {}

  register(read: Read, projection: Projection): this {
    this.projections.set(read, projection);
    return this;
  }

  /** The projection of a read (the bench turns one off). */
  get(read: Read): Projection | undefined {
    return this.projections.get(read);
  }

  /** A batch is committed: every projection takes it (one that fails is logged; the batch stays stored). */
  stored(batch: StoredBatch): void {
    for (const [read, projection] of this.projections) {
      try {
        projection.stored?.(batch);
      } catch (error) {
        this.log.warn({ err: error, projection: read }, 'a projection of a stored batch failed');
      }
    }
  }

  /** Before a read of the campaign: what it reads is written, in the order named. */
  async flushFor(campaignId: string, ...reads: Read[]): Promise<void> {
    for (const read of reads) await this.projections.get(read)?.flush?.(campaignId);
  }

  async close(): Promise<void> {
    for (const projection of this.projections.values()) await projection.close?.();
  }
}
