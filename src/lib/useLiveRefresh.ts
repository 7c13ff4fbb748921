import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { API_PATHS } from '../api/paths.js';
import { LIVE_REFETCH_MS } from './useLiveSessions.js';
import { useLiveStream } from './useLiveStream.js';

/**
 * Keeps a campaign's dashboard current from its live sessions stream: a session stored, changed
 * or deleted fetches the queries under `queryKey` again, at most once per LIVE_REFETCH_MS (a
 * dashboard adds up the whole range, so a change cannot be merged in place as the list does).
 */
export function useLiveRefresh(campaignId: string, queryKey: QueryKey): boolean {
  const queryClient = useQueryClient();
  const state = useRef<{ timer: number | undefined; lastAt: number }>({ timer: undefined, lastAt: 0 });
  useEffect(() => {
    const current = state.current;
    return () => window.clearTimeout(current.timer);
  }, []);
  const refreshSoon = () => {
    const current = state.current;
    if (current.timer !== undefined) return;
    current.timer = window.setTimeout(
      () => {
        current.timer = undefined;
        current.lastAt = Date.now();
        void queryClient.invalidateQueries({ queryKey });
      },
      Math.max(0, current.lastAt + LIVE_REFETCH_MS - Date.now()),
    );
  };
  return useLiveStream({ path: API_PATHS.liveSessions(campaignId), enabled: Boolean(campaignId), on: { session: refreshSoon, deleted: refreshSoon } });
}
