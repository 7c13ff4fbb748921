import { queryOptions } from '@tanstack/react-query';
import { EventType } from '@rrweb/types';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import { replayKeys } from './replayKeys.js';
import type { ReplayEvent, ReplayInit, ReplayResponse } from '../../common/api-types.js';
import { createReplaySource, whenDownloaded, whenDrawn, type ReplaySource } from '../replay/replaySource.js';

/** The longest the rest of a replay waits for the player to draw its first frame. */
const FIRST_FRAME_WAIT_MS = 2000;

export const NO_EVENTS = 'No events found for this session';

type Localize = (events: ReplayEvent[]) => Promise<ReplayEvent[]>;

/** Loaded when a replay is read: its own chunk, beside this module's. */
const loadStreamReader = () => import('./replayStream.js');

const hasFullSnapshot = (events: ReplayEvent[]) => events.some((event) => event.type === EventType.FullSnapshot);

/**
 * Reads the answer into a new replay source as it arrives. A finished session's source is handed
 * over once its first full snapshot is in, so the player starts while the rest downloads (and the
 * rest waits for the player's first frame); any other answer, once read whole. Offline, each batch
 * is localized once on its way in.
 */
async function readIntoSource(response: Response, localize: Localize | null): Promise<ReplaySource> {
  const ready = (events: ReplayEvent[]) => (localize ? localize(events) : Promise.resolve(events));
  if (!response.body) return wholeSource((await response.json()) as ReplayResponse, ready);
  const { readReplayBody } = await loadStreamReader();
  let source: ReplaySource | null = null;
  let started: (source: ReplaySource) => void = () => {};
  const early = new Promise<ReplaySource>((resolve) => (started = resolve));
  const firstPage: ReplayEvent[] = [];
  let delivered = Promise.resolve();
  const read = async () => {
    const body = await readReplayBody<ReplayResponse>(response.body!, (batch, head) => {
      if (source) {
        const into = source;
        delivered = delivered.then(async () => into.append(await ready(batch)));
        return;
      }
      firstPage.push(...batch);
      if (head.complete !== true || !hasFullSnapshot(firstPage)) return;
      const into = createReplaySource(head.init as ReplayInit);
      source = into;
      delivered = delivered.then(async () => {
        into.append(await ready(firstPage));
        started(into);
      });
      // Drawing the first frame goes first: the rest waits for it (or gives up waiting).
      const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, FIRST_FRAME_WAIT_MS));
      return Promise.race([whenDrawn(into), gaveUp]).then(() => undefined);
    });
    await delivered;
    if (!source) return wholeSource(body, ready);
    source.finishDownload(sessionState(body));
    return source;
  };
  const whole = read().catch((error: unknown) => {
    // Broken off after the player started: what came still plays, and the page says what failed.
    if (!source) throw error;
    source.fail(error);
    return source;
  });
  return Promise.race([early, whole]);
}

/** A source of an answer read whole. */
async function wholeSource(body: ReplayResponse, ready: (events: ReplayEvent[]) => Promise<ReplayEvent[]>): Promise<ReplaySource> {
  if (!body || !Array.isArray(body.events) || body.events.length === 0) throw new Error(NO_EVENTS);
  const source = createReplaySource(body.init ?? null, await ready(body.events));
  source.finishDownload(sessionState(body));
  return source;
}

/** What an answer says of its session (an older saved copy has no `live`: not live) and of the batches it carried. */
const sessionState = (body: ReplayResponse) => ({ complete: body.complete !== false, live: body.live === true, batches: body.batches });

/** The session's replay source: filled from the server (offline, from the device's copy). */
export async function fetchReplay(campaignId: string, sessionId: string, client: ApiClient = api): Promise<ReplaySource> {
  if (!campaignId || !sessionId) throw new Error('Campaign ID and Session ID are required');
  // Asked before the request: a worker taking control meanwhile still never saw this one.
  const unseenByWorker = workerMissesRequests();
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  // Offline, the player's iframe cannot reach the recorded site's files: the kept copies stand in.
  const localize = offline ? (await import('../offline/localAssets.js')).localAssetSwapper() : null;
  const path = API_PATHS.replay(campaignId, sessionId);
  // The reader's code loads while the server answers, not after.
  void loadStreamReader().catch(() => undefined);
  let response = await client.request(path).catch(async (error: unknown) => {
    if (offline) return (await deviceCopy(campaignId, sessionId)) ?? Promise.reject(error);
    throw error;
  });
  if (!response.ok && offline) response = (await deviceCopy(campaignId, sessionId)) ?? response;
  if (!response.ok) throw new HttpError(response.status, response.statusText, await response.json().catch(() => null));
  const source = await readIntoSource(response, localize);
  // The worker keeps every replay it fetches, but on a device's first visit it may still be
  // installing: the page keeps this one itself, so the first replay watched works offline too.
  if (unseenByWorker) void keepWhenDownloaded(campaignId, sessionId, source);
  return source;
}

/** Keeps the replay on the device once its download is over (and did not fail). */
async function keepWhenDownloaded(campaignId: string, sessionId: string, source: ReplaySource): Promise<void> {
  const { init, events, complete, live, error } = await whenDownloaded(source);
  if (error) return;
  const body: ReplayResponse = { init: init!, complete, live, events };
  // Loaded when needed: the landing page's demo shares this module and must stay light.
  await import('../offline/keepReplay.js')
    .then(({ keepReplay }) => keepReplay(campaignId, sessionId, new TextEncoder().encode(JSON.stringify(body))))
    .catch((error: unknown) => console.warn('Keeping the replay offline failed', error));
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
