import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Session, SessionCounts, SessionsResponse } from './types.js';

export type SessionTypeFilter = 'all' | 'human' | 'bot';

export interface SessionsQuery {
  search: string;
  type: SessionTypeFilter;
}

export const SESSIONS_PAGE_SIZE = 50;

export const sessionKeys = {
  all: ['sessions'] as const,
  campaign: (campaignId: string) => [...sessionKeys.all, campaignId] as const,
  list: (campaignId: string, query: SessionsQuery) => [...sessionKeys.campaign(campaignId), query] as const,
};

/** Bot if webdriver is set (spec §4) or the server's verdict says so. */
export function isBotSession(session: Pick<Session, 'webdriver'> & Partial<Pick<Session, 'isBot'>>): boolean {
  return session.webdriver === true || session.isBot === true;
}

function countOf(sessions: Session[]): SessionCounts {
  const bot = sessions.filter(isBotSession).length;
  return { total: sessions.length, human: sessions.length - bot, bot };
}

/**
 * Spec §3 allows a bare array, {sessions}, {data} or a single object. Our server answers
 * {sessions, nextCursor, counts}; the other shapes are one page with counts from the list.
 */
export function normalizeSessionsResponse(body: unknown): SessionsResponse {
  if (Array.isArray(body)) return { sessions: body as Session[], nextCursor: null, counts: countOf(body as Session[]) };
  if (body && typeof body === 'object') {
    const record = body as Partial<SessionsResponse> & { data?: unknown };
    const list = Array.isArray(record.sessions) ? record.sessions : Array.isArray(record.data) ? (record.data as Session[]) : null;
    if (list) return { sessions: list, nextCursor: record.nextCursor ?? null, counts: record.counts ?? countOf(list) };
    if ('sessionId' in record) return normalizeSessionsResponse([record]);
  }
  return { sessions: [], nextCursor: null, counts: { total: 0, human: 0, bot: 0 } };
}

export async function fetchSessionsPage(
  campaignId: string,
  query: SessionsQuery,
  cursor: string | null,
  client: ApiClient = api,
): Promise<SessionsResponse> {
  if (!campaignId) throw new Error('Campaign ID is required');
  const params = new URLSearchParams({ limit: String(SESSIONS_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  if (query.search.trim()) params.set('search', query.search.trim());
  if (query.type !== 'all') params.set('type', query.type);
  return normalizeSessionsResponse(await client.get<unknown>(`${API_PATHS.sessions(campaignId)}?${params}`));
}

export const sessionsQueryOptions = (campaignId: string, query: SessionsQuery) =>
  infiniteQueryOptions({
    queryKey: sessionKeys.list(campaignId, query),
    queryFn: ({ pageParam }) => fetchSessionsPage(campaignId, query, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

/** Spec §8: 'Error: {status} {statusText}' or 'Failed to fetch sessions'. */
export function sessionsErrorMessage(error: unknown): string {
  if (error instanceof HttpError) return `Error: ${error.status} ${error.statusText}`.trim();
  if (error instanceof Error && error.message === 'Campaign ID is required') return error.message;
  return 'Failed to fetch sessions';
}
