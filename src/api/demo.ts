import { queryOptions } from '@tanstack/react-query';
import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import { replayKeys } from './replayKeys.js';
import type { ReplayEvent } from '../../common/api-types.js';

// The landing page's demo recording: apart from api/replay.ts, so the landing page loads none of
// a session replay's reading code.

/** The server's demo answer. */
interface DemoReplayResponse {
  data: ReplayEvent[];
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
