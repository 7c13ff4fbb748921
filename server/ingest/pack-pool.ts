import { Piscina } from 'piscina';
import { workerScript } from '../worker-script.js';
import { HttpError } from '../http/errors.js';
import { visitorOf } from './visitor.js';
import { announcedSize, OVER_CAP, packBatch, type PackedBatch, type PackOptions, type PackOutcome } from './pack-batch.js';

/**
 * Bytes of batches waiting for a worker or being packed: a burst of visitors waits its turn,
 * a flood past this is told to come back (503), so the queue's memory stays bounded.
 */
const MAX_QUEUED_BYTES = 64 * 1024 * 1024;
const MAX_QUEUED_BATCHES = 4096;
/**
 * One worker's heap: a batch at the inflate cap parses to a few times its size. Past this the
 * worker dies, its batch is refused, and a fresh worker takes the next one.
 */
const WORKER_HEAP_MB = 512;

export const BUSY = 'Ingest is busy; try again shortly';

/**
 * Batches of at most this much JSON (a tracker's usual batch, a few KB) are packed on the request
 * thread, well under a millisecond: handing them to a worker cost the event loop about as much
 * (the message both ways) and kept a second core busy. Larger ones, and bodies announcing a
 * small size but inflating past it, go to a worker.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

function packed(outcome: PackOutcome): PackedBatch {
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  return outcome.batch;
}

/**
 * Packs ingest batches (pack-batch.ts): small ones here, the rest in worker threads. The
 * threads are warmed when the server gets ready, so the first large batch (or one taken while
 * shutting down) does not wait for the bundle and the threads to start.
 */
export class BatchPacker {
  #pool: Promise<Piscina> | null = null;
  #queuedBytes = 0;

  constructor(private readonly workers: number) {}

  #start(): Promise<Piscina> {
    this.#pool ??= workerScript(new URL('./pack-worker.ts', import.meta.url)).then((filename) => new Piscina({
      filename,
      minThreads: this.workers,
      maxThreads: this.workers,
      maxQueue: MAX_QUEUED_BATCHES,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    }));
    return this.#pool;
  }

  async warm(): Promise<void> {
    await this.#start();
  }

  /**
   * The packed batch, or an HttpError: the batch's flaw (4xx) or a full queue (503). `ip`, the
   * sender's address: a first batch's visitor is read from it here, on the request thread (the
   * country database is loaded once per process, not once per worker).
   */
  async pack(raw: Buffer, now: number, options?: PackOptions, ip?: string): Promise<PackedBatch> {
    const batch = await this.#packed(raw, now, options);
    if (ip !== undefined) batch.visitor = visitorOf(ip, batch.info);
    return batch;
  }

  async #packed(raw: Buffer, now: number, options?: PackOptions): Promise<PackedBatch> {
    if (announcedSize(raw) <= INLINE_MAX_BYTES) {
      const outcome = packBatch(raw, now, options, INLINE_MAX_BYTES);
      if (outcome.ok || outcome.error !== OVER_CAP) return packed(outcome);
    }
    return packed(await this.#inWorker(raw, now, options));
  }

  async #inWorker(raw: Buffer, now: number, options?: PackOptions): Promise<PackOutcome> {
    if (this.#queuedBytes + raw.length > MAX_QUEUED_BYTES) throw new HttpError(503, BUSY);
    this.#queuedBytes += raw.length;
    try {
      return await (await this.#start()).run({ raw, now, options });
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (message.includes('queue is at limit')) throw new HttpError(503, BUSY);
      // The worker ran out of its heap on this batch (or died): the batch is what is refused.
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new HttpError(413, 'Batch is too large to process');
      }
      throw error;
    } finally {
      this.#queuedBytes -= raw.length;
    }
  }

  async close(): Promise<void> {
    await (await this.#pool)?.destroy();
    this.#pool = null;
  }
}
