import { queryOptions } from '@tanstack/react-query';
import { EventType } from '@rrweb/types';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { ReplayEvent, ReplayInit, ReplayResponse } from '../../common/api-types.js';
import type { LiveFeed } from '../components/ReplayPlayer.js';

/** The longest the rest of a replay waits for the player to draw its first frame. */
const FIRST_FRAME_WAIT_MS = 2000;

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

/** A replay still downloading: its first page, for the player to start on, and the rest as it comes. */
export interface EarlyReplay {
  init: ReplayInit;
  events: ReplayEvent[];
  /** The events after the first page, in batches as they arrive. */
  more: LiveFeed;
}

const earlyReplays = new Map<string, EarlyReplay>();
const earlyListeners = new Map<string, Set<(early: EarlyReplay) => void>>();

/** The early replay of a download under way (now, and when it comes); returns the unsubscribe. */
export function watchEarlyReplay(campaignId: string, sessionId: string, listener: (early: EarlyReplay) => void): () => void {
  const key = `${campaignId}/${sessionId}`;
  const known = earlyReplays.get(key);
  if (known) listener(known);
  const listeners = earlyListeners.get(key) ?? new Set();
  earlyListeners.set(key, listeners.add(listener));
  return () => {
    listeners.delete(listener);
    if (!listeners.size && earlyListeners.get(key) === listeners) earlyListeners.delete(key);
  };
}

/**
 * Reads the answer as it arrives. A finished session's replay is announced early (watchEarlyReplay)
 * once its first full snapshot is in, so the player starts while the rest downloads.
 */
async function readReplay(response: Response, key: string, localize: Localize | null): Promise<ReplayResponse> {
  if (!response.body) return localized((await response.json()) as ReplayResponse, localize);
  // Loaded when a replay is read: the landing page's demo shares this module and must stay light.
  const [{ readReplayBody }, { createLiveFeed }] = await Promise.all([import('./replayStream.js'), import('../lib/liveFeed.js')]);
  const firstPage: ReplayEvent[] = [];
  let feed: ReturnType<typeof createLiveFeed> | null = null;
  let delivered = Promise.resolve();
  // Offline, each batch is localized once, on its way to the player; they make up the answer.
  const handed: ReplayEvent[] = [];
  const hand = async (events: ReplayEvent[]) => {
    const ready = localize ? await localize(events) : events;
    for (const event of ready) handed.push(event);
    return ready;
  };
  try {
    const body = await readReplayBody<ReplayResponse>(response.body, (batch, head) => {
      if (feed) {
        const more = feed;
        delivered = delivered.then(async () => more.push(await hand(batch)));
        return;
      }
      firstPage.push(...batch);
      if (head.complete !== true || !firstPage.some((event) => event.type === EventType.FullSnapshot)) return;
      const rest = createLiveFeed(0);
      feed = rest;
      // While a page starts its player on these events, the rest waits: drawing the first frame
      // goes first. The player asks for the rest (subscribes) once it has drawn it.
      let markDrawn = () => {};
      const drawn = new Promise<void>((resolve) => (markDrawn = resolve));
      const more: LiveFeed = {
        subscribe(onEvents) {
          // Subscribed right after the player was made: its first frame is painted a frame later.
          if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(markDrawn, 0));
          else markDrawn();
          return rest.subscribe(onEvents);
        },
      };
      delivered = delivered.then(async () => {
        const watched = announceEarly(key, { init: head.init as ReplayInit, events: await hand(firstPage), more });
        if (!watched) markDrawn();
      });
      const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, FIRST_FRAME_WAIT_MS));
      return Promise.race([drawn, gaveUp]);
    });
    await delivered;
    if (!feed) return localized(body, localize);
    return localize ? { ...body, events: handed } : body;
  } finally {
    await delivered.catch(() => undefined);
    earlyReplays.delete(key);
  }
}

type Localize = (events: ReplayEvent[]) => Promise<ReplayEvent[]>;

async function localized(body: ReplayResponse, localize: Localize | null): Promise<ReplayResponse> {
  return localize && Array.isArray(body?.events) ? { ...body, events: await localize(body.events) } : body;
}

/** Announces the early replay; whether a page was watching for it. */
function announceEarly(key: string, early: EarlyReplay): boolean {
  earlyReplays.set(key, early);
  const listeners = earlyListeners.get(key) ?? new Set();
  for (const listener of listeners) listener(early);
  return listeners.size > 0;
}

export async function fetchReplay(campaignId: string, sessionId: string, client: ApiClient = api): Promise<ReplayResponse> {
  if (!campaignId || !sessionId) throw new Error('Campaign ID and Session ID are required');
  // Asked before the request: a worker taking control meanwhile still never saw this one.
  const unseenByWorker = workerMissesRequests();
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  // Offline, the player's iframe cannot reach the recorded site's files: the kept copies stand in.
  const localize = offline ? (await import('../offline/localAssets.js')).localAssetSwapper() : null;
  const path = API_PATHS.replay(campaignId, sessionId);
  let response = await client.request(path).catch(async (error: unknown) => {
    if (offline) return (await deviceCopy(campaignId, sessionId)) ?? Promise.reject(error);
    throw error;
  });
  if (!response.ok && offline) response = (await deviceCopy(campaignId, sessionId)) ?? response;
  if (!response.ok) throw new HttpError(response.status, response.statusText, await response.json().catch(() => null));
  const body = await readReplay(response, `${campaignId}/${sessionId}`, localize);
  if (!body || !Array.isArray(body.events) || body.events.length === 0) throw new Error(NO_EVENTS);
  if (unseenByWorker) {
    // The worker keeps every replay it fetches, but on a device's first visit it may still be
    // installing: the page keeps this one itself, so the first replay watched works offline too.
    // Loaded when needed: the landing page's demo shares this module and must stay light.
    void import('../offline/keepReplay.js')
      .then(({ keepReplay }) => keepReplay(campaignId, sessionId, new TextEncoder().encode(JSON.stringify(body))))
      .catch((error: unknown) => console.warn('Keeping the replay offline failed', error));
  }
  return body;
}

/**
 * Offline, the device's saved copy, read by the page itself. The service worker answers from it
 * too, but a page it does not control (opened before it took over) asks the network alone.
 */
async function deviceCopy(campaignId: string, sessionId: string): Promise<Response | null> {
  const { openReplayStream } = await import('../offline/replayStore.js');
  const saved = await openReplayStream(campaignId, sessionId).catch(() => null);
  return saved && new Response(saved.body, { headers: { 'Content-Type': 'application/json' } });
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
