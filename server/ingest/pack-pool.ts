import type { Piscina } from 'piscina';
import { HttpError } from '../http/errors.js';
import { workerScript } from '../worker-script.js';

// The worker threads that pack the batches too large for the request thread (pack.ts's
// BatchPacker hands them here; pack-worker.ts is the threads' entry). A usual batch never comes
// here, so no code of this file runs for it: it is not on the write spine.

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

/** A pool of `workers` threads running pack-worker.ts on a task carrying the batch's `raw` body. */
export class PackingThreads<Task extends { raw: Buffer }, Outcome> {
  #pool: Promise<Piscina> | null = null;
  #queuedBytes = 0;

  constructor(private readonly workers: number) {}

  #start(): Promise<Piscina> {
    // Piscina loaded here, not with the file: the worker's bundle of this file never evaluates it.
    this.#pool ??= Promise.all([workerScript(new URL('./pack-worker.ts', import.meta.url)), import('piscina')]).then(
      ([filename, { Piscina }]) =>
        new Piscina({
          filename,
          minThreads: this.workers,
          maxThreads: this.workers,
          maxQueue: MAX_QUEUED_BATCHES,
          idleTimeout: 60_000,
          resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        }),
    );
    return this.#pool;
  }

  async warm(): Promise<void> {
    await this.#start();
  }

  /** The worker's outcome for `task`, or an HttpError: a full queue (503) or a batch the worker died on (413). */
  async run(task: Task): Promise<Outcome> {
    const { raw } = task;
    if (this.#queuedBytes + raw.length > MAX_QUEUED_BYTES) throw new HttpError(503, BUSY);
    this.#queuedBytes += raw.length;
    try {
      return (await (await this.#start()).run(task)) as Outcome;
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
