import type { RouteHandlerCallbackOptions } from 'workbox-core';
import { openReplayStream, getSavedReplay } from '../src/offline/replayStore.js';
import { keepReplay, PAGE_STORES_HEADER } from '../src/offline/keepReplay.js';
import { replayIdsFromApiPath } from '../src/lib/replayUrls.js';
import { OFFLINE_REPLAY_MESSAGE, SOURCE_HEADER } from '../src/offline/network.js';
import { readAllBytes } from '../src/offline/compress.js';

// Replays through the service worker: a saved, complete replay is answered from IndexedDB at
// once (no network wait); otherwise the network answers and the worker keeps a compressed copy;
// with no network, the saved copy (complete or not) answers.

export function isReplayRequest({ url, request }: { url: URL; request: Request }): boolean {
  return request.method === 'GET' && url.origin === self.location.origin && replayIdsFromApiPath(url.pathname) !== null;
}

/** The saved answer, streamed as it is inflated, so the page can start on its first events. */
async function fromDevice(campaignId: string, sessionId: string): Promise<Response | null> {
  const saved = await openReplayStream(campaignId, sessionId).catch(() => null);
  if (!saved) return null;
  return new Response(saved.body, {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', [SOURCE_HEADER]: 'device', 'X-Tapedeck-Saved-At': String(saved.replay.savedAt) },
  });
}

/** Streams the answer to the page while a copy is stored on the device. */
function streamAndKeep(response: Response, campaignId: string, sessionId: string, event: ExtendableEvent): Response {
  if (!response.body) return response;
  const [toPage, toDevice] = response.body.tee();
  event.waitUntil(
    readAllBytes(toDevice)
      .then((body) => keepReplay(campaignId, sessionId, body))
      .catch((error: unknown) => console.warn('Keeping the replay offline failed', error)),
  );
  const headers = new Headers(response.headers);
  // The body handed on is already decoded.
  headers.delete('Content-Encoding');
  headers.delete('Content-Length');
  headers.set(SOURCE_HEADER, 'network');
  return new Response(toPage, { status: response.status, statusText: response.statusText, headers });
}

export async function handleReplay({ url, request, event }: RouteHandlerCallbackOptions): Promise<Response> {
  const ids = replayIdsFromApiPath(url.pathname);
  if (!ids) return fetch(request);
  const { campaignId, sessionId } = ids;
  const saved = await getSavedReplay(campaignId, sessionId).catch(() => undefined);
  if (saved?.complete) {
    const answer = await fromDevice(campaignId, sessionId);
    if (answer) return answer;
  }
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    const answer = saved ? await fromDevice(campaignId, sessionId) : null;
    if (answer) return answer;
    return Response.json({ error: OFFLINE_REPLAY_MESSAGE }, { status: 503, statusText: 'Offline' });
  }
  if (!response.ok || request.headers.has(PAGE_STORES_HEADER)) return response;
  return streamAndKeep(response, campaignId, sessionId, event as ExtendableEvent);
}
