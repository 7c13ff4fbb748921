import { defaultShouldDehydrateQuery, type Query } from '@tanstack/react-query';
import type { AsyncStorage, PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
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

const QUOTA_MESSAGE = 'Storage is full: the latest lists could not be saved for offline use.';

/** The library's async storage, on the offline IndexedDB database's query-cache store. */
const idbStorage: AsyncStorage<string> = {
  async getItem(key) {
    const value = (await (await openOfflineDb()).get('queryCache', key)) as unknown;
    return typeof value === 'string' ? value : null;
  },
  async setItem(key, value) {
    await (await openOfflineDb()).put('queryCache', value, key);
  },
  async removeItem(key) {
    await (await openOfflineDb()).delete('queryCache', key);
  },
};

/** A full device must not break the app: the cache simply is not saved this time. */
function giveUpSaving(error: unknown): undefined {
  if (isQuotaError(error)) notifyOfflineChange({ type: 'quota', message: QUOTA_MESSAGE });
  else console.error('Saving the query cache failed', error);
  return undefined;
}

/**
 * TanStack's async-storage persister (throttled: the first change after a quiet spell is saved at
 * once, a burst after it in one trailing save of the latest state), plus `flush()` to save the
 * latest state now — before the page goes away, and as soon as new data arrives.
 */
export function createIdbPersister({ key = QUERY_CACHE_KEY, throttleMs = PERSIST_THROTTLE_MS }: IdbPersisterOptions = {}): Persister & {
  flush(): Promise<void>;
} {
  const persister = createAsyncStoragePersister({ storage: idbStorage, key, throttleTime: throttleMs, retry: ({ error }) => giveUpSaving(error) });
  let latest: PersistedClient | null = null;
  return {
    persistClient(client) {
      latest = client;
      return persister.persistClient(client);
    },
    restoreClient: () => persister.restoreClient(),
    removeClient() {
      latest = null;
      return persister.removeClient();
    },
    async flush() {
      if (!latest) return;
      try {
        await idbStorage.setItem(key, JSON.stringify(latest));
      } catch (error) {
        giveUpSaving(error);
      }
    },
  };
}

/** Replay answers (with their event arrays) belong in the replay store, not in this cache. */
export function holdsReplayEvents(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Array.isArray((data as { events?: unknown }).events);
}

/** Who is signed in is asked of the server at each start (the device keeps its own copy for offline). */
export function shouldPersistQuery(query: Query): boolean {
  const key = query.queryKey[0];
  return defaultShouldDehydrateQuery(query) && key !== 'replay' && key !== 'auth' && !holdsReplayEvents(query.state.data);
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
