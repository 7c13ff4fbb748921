import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Ok, SessionsResponse } from '../../common/api-types.js';
import { filterParams, type SessionFilters } from '../lib/sessionFilters.js';
import type { SessionType } from '../../common/session-list.js';
import { OfflineWriteError } from '../offline/network.js';

export type SessionTypeFilter = 'all' | SessionType;

export interface SessionsQuery {
  search: string;
  type: SessionTypeFilter;
  /** The filters and sort from the page's URL. */
  filters?: SessionFilters;
}

export const SESSIONS_PAGE_SIZE = 50;

export const sessionKeys = {
  all: ['sessions'] as const,
  campaign: (campaignId: string) => [...sessionKeys.all, campaignId] as const,
  list: (campaignId: string, query: SessionsQuery) => [...sessionKeys.campaign(campaignId), query] as const,
};

/** The badge text for the server's bot verdict, the one verdict every screen shows. */
export const sessionTypeLabel = (isBot: boolean | undefined) => (isBot ? 'Bot Traffic' : 'Human User');

export async function fetchSessionsPage(campaignId: string, query: SessionsQuery, cursor: string | null, client: ApiClient = api): Promise<SessionsResponse> {
  if (!campaignId) throw new Error('Campaign ID is required');
  const params = new URLSearchParams({ limit: String(SESSIONS_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  if (query.search.trim()) params.set('search', query.search.trim());
  if (query.type !== 'all') params.set('type', query.type);
  if (query.filters) filterParams(query.filters, params);
  return client.get<SessionsResponse>(`${API_PATHS.sessions(campaignId)}?${params}`);
}

export const sessionsQueryOptions = (campaignId: string, query: SessionsQuery) =>
  infiniteQueryOptions({
    queryKey: sessionKeys.list(campaignId, query),
    queryFn: ({ pageParam }) => fetchSessionsPage(campaignId, query, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

/** The sessions page's load error: 'Error: {status} {statusText}', else 'Failed to fetch sessions'. */
export function sessionsErrorMessage(error: unknown): string {
  if (error instanceof HttpError) return `Error: ${error.status} ${error.statusText}`.trim();
  if (error instanceof Error && error.message === 'Campaign ID is required') return error.message;
  return 'Failed to fetch sessions';
}

/** Deletes one session and its recording (owner only). */
export async function deleteSession(campaignId: string, sessionId: string, client: ApiClient = api): Promise<void> {
  await client.delete<Ok>(API_PATHS.session(campaignId, sessionId));
}

export function deleteSessionErrorMessage(error: unknown): string {
  if (error instanceof OfflineWriteError) return error.message;
  if (error instanceof HttpError) return `Error: ${error.status} ${error.statusText}`.trim();
  return 'Failed to delete session';
}
