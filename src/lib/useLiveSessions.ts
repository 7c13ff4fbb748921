import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { API_PATHS } from '../api/paths.js';
import { sessionKeys, type SessionsQuery } from '../api/sessions.js';
import { mergeLiveChange, parseLiveMessage, type LiveChange, type SessionPages } from './liveSessions.js';
import { useLiveStream } from './useLiveStream.js';

/** The counters (and lists a change could not be placed in) are fetched again at most this often. */
export const LIVE_REFETCH_MS = 5000;

/**
 * Keeps every cached list of the campaign current from its live stream: a change goes into each
 * list at once; the counters, and lists whose filters or sort decide where it goes, are fetched
 * again, at most once per LIVE_REFETCH_MS. Returns whether the stream is connected.
 */
export function useLiveSessions(campaignId: string, enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const pending = useRef<{ timer: number | undefined; lastAt: number; keys: QueryKey[] }>({ timer: undefined, lastAt: 0, keys: [] });

  useEffect(() => {
    const state = pending.current;
    return () => window.clearTimeout(state.timer);
  }, []);

  const refetchSoon = (keys: QueryKey[]) => {
    const state = pending.current;
    state.keys.push(...keys);
    if (state.timer !== undefined) return;
    const run = () => {
      state.timer = undefined;
      state.lastAt = Date.now();
      const due = new Map(state.keys.splice(0).map((key) => [JSON.stringify(key), key]));
      // Each list's first page holds the counters: refetching it brings them.
      for (const queryKey of due.values()) void queryClient.invalidateQueries({ queryKey, exact: true });
    };
    state.timer = window.setTimeout(run, Math.max(0, state.lastAt + LIVE_REFETCH_MS - Date.now()));
  };

  const apply = (change: LiveChange) => {
    const queries = queryClient.getQueryCache().findAll({ queryKey: sessionKeys.campaign(campaignId) });
    const keys: QueryKey[] = [];
    for (const query of queries) {
      const listQuery = query.queryKey[2] as SessionsQuery | undefined;
      if (!listQuery) continue;
      const merged = mergeLiveChange(query.state.data as SessionPages | undefined, listQuery, change);
      if (merged.data !== query.state.data) queryClient.setQueryData(query.queryKey, merged.data);
      if (merged.refetch) keys.push(query.queryKey);
    }
    if (keys.length) refetchSoon(keys);
  };

  return useLiveStream({
    path: API_PATHS.liveSessions(campaignId),
    enabled: enabled && Boolean(campaignId),
    on: {
      session: (data) => {
        const change = parseLiveMessage('session', data);
        if (change) apply(change);
      },
      deleted: (data) => {
        const change = parseLiveMessage('deleted', data);
        if (change) apply(change);
      },
    },
  });
}
