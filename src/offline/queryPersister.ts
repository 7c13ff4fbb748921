import { defaultShouldDehydrateQuery, type Query } from '@tanstack/react-query';
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { openOfflineDb } from './db.js';
import { isQuotaError } from './errors.js';
import { notifyOfflineChange } from './channel.js';

// The TanStack Query cache, persisted in the shared IndexedDB database so the dashboard and
// session lists render with no network. Writes are throttled; replay event arrays are kept
// out of it (they live in the replay store, compressed).

export const QUERY_CACHE_KEY = 'tapedeck-query-cache';
/** How long a persisted cache stays usable. The query client's gcTime must be at least this. */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const PERSIST_THROTTLE_MS = 500;

export interface IdbPersisterOptions {
  key?: string;
  throttleMs?: number;
}

export function createIdbPersister({ key = QUERY_CACHE_KEY, throttleMs = PERSIST_THROTTLE_MS }: IdbPersisterOptions = {}): Persister & {
  flush(): Promise<void>;
} {
  let pending: PersistedClient | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWriteAt = Number.NEGATIVE_INFINITY;

  async function write(): Promise<void> {
    timer = null;
    lastWriteAt = Date.now();
    const client = pending;
    pending = null;
    if (!client) return;
    try {
      const db = await openOfflineDb();
      await db.put('queryCache', client, key);
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      // A full device must not break the app: the cache simply is not saved this time.
      notifyOfflineChange({ type: 'quota', message: 'Storage is full: the latest lists could not be saved for offline use.' });
    }
  }

  return {
    persistClient(client) {
      pending = client;
      // Leading edge: the first change after a quiet spell is saved at once; changes that
      // follow within the window are coalesced into one trailing save.
      if (!timer && Date.now() - lastWriteAt >= throttleMs) {
        void write().catch((error: unknown) => console.error('Saving the query cache failed', error));
        return;
      }
      timer ??= setTimeout(() => void write().catch((error: unknown) => console.error('Saving the query cache failed', error)), throttleMs);
    },
    async restoreClient() {
      const db = await openOfflineDb();
      return (await db.get('queryCache', key)) as PersistedClient | undefined;
    },
    async removeClient() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
      const db = await openOfflineDb();
      await db.delete('queryCache', key);
    },
    /** Writes a throttled save now (tests, and before the page goes away). */
    async flush() {
      if (timer) clearTimeout(timer);
      await write();
    },
  };
}

/** Replay answers (with their event arrays) belong in the replay store, not in this cache. */
export function holdsReplayEvents(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Array.isArray((data as { events?: unknown }).events);
}

export function shouldPersistQuery(query: Query): boolean {
  return defaultShouldDehydrateQuery(query) && query.queryKey[0] !== 'replay' && !holdsReplayEvents(query.state.data);
}

/** Build id: a new build discards caches written by an old one. */
export const BUILD_ID: string = (import.meta.env?.VITE_BUILD_ID as string | undefined) ?? 'dev';

export const queryPersister = createIdbPersister();

export const persistOptions: Omit<PersistQueryClientOptions, 'queryClient'> = {
  persister: queryPersister,
  maxAge: PERSIST_MAX_AGE_MS,
  buster: BUILD_ID,
  dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
};

/** When the newest data in the cache was fetched: the "{time ago}" of the offline banner. */
export function newestDataAt(queries: Query[]): number | null {
  const newest = Math.max(0, ...queries.map((query) => query.state.dataUpdatedAt));
  return newest > 0 ? newest : null;
}
