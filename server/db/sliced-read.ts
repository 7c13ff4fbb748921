import type { Executor } from './executor.js';

/** What a heavy read's counting reads with: its queries' executor, and a loop over many rows. */
export interface SlicedRead {
  db: Executor;
  /** Runs `work` on each item; on the event loop, in slices that let other requests in (server/http/heavy-reads.ts). */
  each<T>(items: Iterable<T>, work: (item: T) => void): Promise<void>;
}

/** A read whose loops run straight through: in a worker thread, where nothing else waits, and in tests. */
export const plainRead = (db: Executor): SlicedRead => ({
  db,
  each: async (items, work) => {
    for (const item of items) work(item);
  },
});
