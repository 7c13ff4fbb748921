import type { FastifyBaseLogger } from 'fastify';

// What the projections of a stored batch (the error log, the funnel visit log, the heat feed)
// share: entries gathered in memory off the batch's path, keyed so a later batch can add onto
// one, written together a while after the first one arrived, one write at a time. Bounded: past
// `maxPending` entries, new ones are dropped (counted in the log) until the next write, never
// ingest slowed. A failed write is tried again a few times, then its entries are dropped (logged):
// a projection can lose entries, never a batch.

/** Times one write is tried before its entries are dropped. */
export const MAX_TRIES = 3;

export interface BufferedWriterOptions<T> {
  /** Named in the log. */
  name: string;
  /** How long entries wait after the first one before they are written. */
  flushMs: number;
  /** Entries waiting at most; past this, new ones are dropped until a write takes them. */
  maxPending: number;
  /** Writes the entries (one transaction, as the projection likes). */
  write: (entries: T[]) => Promise<void>;
  log: FastifyBaseLogger;
  /** Pause before a failed write is tried again. */
  retryMs?: number;
}

export class BufferedWriter<T> {
  private pending = new Map<string, T>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(private readonly options: BufferedWriterOptions<T>) {}

  /** The entry of `key`, made by `make` when new; undefined when it is new and there is no room (dropped). */
  entry(key: string, make: () => T): T | undefined {
    let entry = this.pending.get(key);
    if (entry === undefined) {
      if (this.pending.size >= this.options.maxPending) {
        this.dropped++;
        return undefined;
      }
      entry = make();
      this.pending.set(key, entry);
    }
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs).unref();
    return entry;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Writes what waits now, after any write under way; never rejects (a write that fails for good is logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const entries = [...this.pending.values()];
    this.pending = new Map();
    const dropped = this.dropped;
    this.dropped = 0;
    this.writing = this.writing.then(async () => {
      if (dropped) this.options.log.warn({ dropped }, `${this.options.name}: dropped, too many waiting`);
      if (entries.length) await this.writeTrying(entries);
    });
    return this.writing;
  }

  /** Writes what waits and stops the timer (the app closes). */
  async close(): Promise<void> {
    await this.flush();
  }

  private async writeTrying(entries: T[]): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await this.options.write(entries);
      } catch (error) {
        if (tries >= MAX_TRIES) {
          this.options.log.warn({ err: error, entries: entries.length, tries }, `${this.options.name}: write failed, entries dropped`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, (this.options.retryMs ?? 200) * tries));
      }
    }
  }
}
