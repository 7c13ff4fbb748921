import type { QueryClient } from '@tanstack/react-query';
import { campaignKeys } from './campaigns.js';

/** Per-session content an erasure elsewhere does not change (and a deleted session's would only answer 404). */
const SESSION_CONTENT = new Set<unknown>(['replay', 'notes']);

/**
 * After an erasure or a deletion, every screen of the campaign shows what is left: each of its
 * queries (keyed [kind, campaignId, ...]) and the campaign list's counts are marked stale, and
 * those on screen are asked for again, instead of being kept for the cache's freshness.
 */
export function campaignDataChanged(queryClient: QueryClient, campaignId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[1] === campaignId && !SESSION_CONTENT.has(queryKey[0]) }),
    queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  ]);
}
