import { queryOptions } from '@tanstack/react-query';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { ReplayEvent, ReplayResponse } from '../../common/api-types.js';

/** The server's demo answer. */
interface DemoReplayResponse {
  data: ReplayEvent[];
}

export const replayKeys = {
  all: ['replay'] as const,
  session: (campaignId: string, sessionId: string) => [...replayKeys.all, campaignId, sessionId] as const,
  demo: (isMobile: boolean) => [...replayKeys.all, 'demo', isMobile] as const,
};

export const NO_EVENTS = 'No events found for this session';

export async function fetchReplay(campaignId: string, sessionId: string, client: ApiClient = api): Promise<ReplayResponse> {
  if (!campaignId || !sessionId) throw new Error('Campaign ID and Session ID are required');
  // Asked before the request: a worker taking control meanwhile still never saw this one.
  const unseenByWorker = workerMissesRequests();
  const body = await client.get<ReplayResponse>(API_PATHS.replay(campaignId, sessionId));
  if (!body || !Array.isArray(body.events) || body.events.length === 0) throw new Error(NO_EVENTS);
  if (unseenByWorker) {
    // The worker keeps every replay it fetches, but on a device's first visit it may still be
    // installing: the page keeps this one itself, so the first replay watched works offline too.
    // Loaded when needed: the landing page's demo shares this module and must stay light.
    void import('../offline/keepReplay.js')
      .then(({ keepReplay }) => keepReplay(campaignId, sessionId, new TextEncoder().encode(JSON.stringify(body))))
      .catch((error: unknown) => console.warn('Keeping the replay offline failed', error));
  }
  // Offline, the player's iframe cannot reach the recorded site's files: use the kept copies.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    const { withLocalAssets } = await import('../offline/localAssets.js');
    return { ...body, events: await withLocalAssets(body.events) };
  }
  return body;
}

/** Online, with service workers, but none controlling this page yet. */
function workerMissesRequests(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine !== false && navigator.serviceWorker !== undefined && navigator.serviceWorker.controller === null;
}

export const replayQueryOptions = (campaignId: string, sessionId: string) =>
  queryOptions({
    queryKey: replayKeys.session(campaignId, sessionId),
    queryFn: () => fetchReplay(campaignId, sessionId),
    // Event logs are big: keep them out of the cache soon after the page is left.
    gcTime: 60 * 1000,
    retry: false,
    // Offline the service worker answers from the device's saved replays: always ask it.
    networkMode: 'always',
  });

/** The replay page's error text: one per status (401, 403, 404), else the error's own message. */
export function replayErrorMessage(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 401) return 'Authentication failed. Please log in again.';
    if (error.status === 403) return 'You do not have permission to access this session.';
    if (error.status === 404) return 'Session not found. It may have been deleted or does not exist.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Failed to load session data';
}

/** Demo: a coarse pointer or a phone's user agent asks for the phone-sized recording. */
export function prefersMobileDemo(): boolean {
  if (typeof window === 'undefined') return false;
  const coarse = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
  return coarse || /Mobi|Android|iPhone|iPad|iPod/i.test(navigator.userAgent);
}

export async function fetchDemoReplay(isMobile: boolean, client: ApiClient = api): Promise<ReplayEvent[]> {
  const response = await client.request(`${API_PATHS.demoReplay}?isMobile=${isMobile}`);
  if (!response.ok) throw new Error(`Failed to fetch demo replay (${response.status})`);
  const { data: events } = (await response.json()) as DemoReplayResponse;
  if (events.length === 0) throw new Error('No demo events available');
  return events;
}

export const demoReplayQueryOptions = (isMobile: boolean) =>
  queryOptions({
    queryKey: replayKeys.demo(isMobile),
    queryFn: () => fetchDemoReplay(isMobile),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
