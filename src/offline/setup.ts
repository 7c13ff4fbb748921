import { hashKey, onlineManager, type QueryClient } from '@tanstack/react-query';
import { persistQueryClient } from '@tanstack/react-query-persist-client';
import type { User } from '../../common/api-types.js';
import { ME_QUERY_KEY, onLogout } from '../auth/session.js';
import { PERSIST_MAX_AGE_MS, persistOptions, queryPersister } from './queryPersister.js';
import { forgetUser, rememberUser } from './cachedUser.js';

// Wires the offline layer into the app: the persisted query cache, the "offline is not signed
// out" auth rule, the logout wipe, and refreshing on reconnect (the service worker is registered by
// UpdatePrompt, which offers its updates).

const RESTORE_WAIT_MS = 2000;
const ME_QUERY_HASH = hashKey(ME_QUERY_KEY);

const REFRESH_TRIES = 4;
const REFRESH_RETRY_MS = 1000;

/**
 * Saved replays of sessions that were still recording are fetched again. The network can come
 * back in steps (the page hears 'online' before every request goes through), so a failed fetch
 * is tried again a few times, waiting longer each time, while the browser stays online.
 */
export async function refreshIncompleteReplays(retryMs = REFRESH_RETRY_MS): Promise<void> {
  // An imported recording file is not the server's to refresh.
  // Loaded here, not with the app: the saved replays' store is no part of the first screen.
  const { listSavedReplays } = await import('./replayStore.js');
  let pending = (await listSavedReplays()).filter((replay) => !replay.complete && !replay.imported);
  if (pending.length === 0) return;
  // Loaded only when there is something to refresh: the first load stays light.
  const { saveForOffline } = await import('./saveForOffline.js');
  for (let attempt = 1; pending.length > 0; attempt++) {
    const failed: typeof pending = [];
    for (const replay of pending) {
      await saveForOffline(replay.campaignId, replay.sessionId).catch((error: unknown) => {
        failed.push(replay);
        if (attempt === REFRESH_TRIES) console.warn('Refreshing a saved replay failed', error);
      });
    }
    if (failed.length === 0 || attempt === REFRESH_TRIES || !navigator.onLine) return;
    await new Promise((resolve) => setTimeout(resolve, retryMs * 2 ** (attempt - 1)));
    pending = failed;
  }
}

/** The device remembers the last user the server confirmed, for starting offline (see auth/session). */
function wireOfflineAuth(queryClient: QueryClient): void {
  let remembered: string | null | undefined;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryHash !== ME_QUERY_HASH) return;
    const user = event.query.state.data as User | null;
    const fingerprint = user ? JSON.stringify(user) : null;
    if (fingerprint === remembered) return;
    remembered = fingerprint;
    void (user ? rememberUser(user) : forgetUser()).catch(() => undefined);
  });
  onLogout(async () => {
    // Empty the memory cache first so the persister cannot write the user's data back.
    queryClient.clear();
    const { wipeOfflineData } = await import('./wipe.js');
    await wipeOfflineData();
  });
}

/**
 * Call before the auth check starts. Resolves once the persisted query cache is restored (or
 * after a short wait), so the first screen renders from it when offline.
 */
export function setUpOffline(queryClient: QueryClient): Promise<void> {
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    ...defaults,
    // A persisted query must outlive the persister's maxAge in memory too.
    queries: { ...defaults.queries, gcTime: PERSIST_MAX_AGE_MS },
    // Writes run (and are refused with a clear message) offline instead of pausing unseen.
    mutations: { ...defaults.mutations, networkMode: 'always' },
  });
  // Query's online manager only hears later 'online'/'offline' events: tell it how the app
  // starts, so queries pause (and keep their cached data) when it starts with no network.
  onlineManager.setOnline(navigator.onLine);
  wireOfflineAuth(queryClient);
  window.addEventListener('online', () => {
    void queryClient.invalidateQueries();
    void refreshIncompleteReplays();
  });
  // New data is saved at once (the throttle is for the noise of fetch states); a throttled
  // save must not be lost when the page goes away either.
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') queueMicrotask(() => void queryPersister.flush().catch(() => undefined));
  });
  const flush = () => void queryPersister.flush().catch(() => undefined);
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  const [, persisting] = persistQueryClient({ queryClient, ...persistOptions });
  // Restored data is shown at once but counts as stale: with a network it is fetched again.
  const restored = persisting.then(() => queryClient.invalidateQueries({ refetchType: 'none' }));
  const waited = new Promise<void>((resolve) => setTimeout(resolve, RESTORE_WAIT_MS));
  return Promise.race([restored.catch(() => undefined), waited]);
}
