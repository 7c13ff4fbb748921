import { api, HttpError } from '../api/client.js';
import { replayErrorMessage } from '../api/replay.js';
import type { SavedReplay } from './db.js';
import { concatBytes } from './compress.js';
import { keepReplay, PAGE_STORES_HEADER } from './keepReplay.js';
import { replayApiPath } from '../lib/replayUrls.js';
import { isOffline, SOURCE_HEADER } from './network.js';
import { warmPlayer } from '../components/player/loadPlayer.js';
import { fetchNotes } from '../api/notes.js';
import { recordReplayNotes } from './replayStore.js';

// 'Save for offline' from the page: downloads the replay with progress, stores it (the service
// worker is told not to store it twice), keeps the assets its events reference, and loads the
// player's lazy chunk so the service worker has it for offline playback.

export const SAVE_OFFLINE_MESSAGE = "You're offline — connect to the network to save this replay.";

export interface SaveProgress {
  received: number;
  /** Bytes expected, when known (not when the server compresses on the wire). */
  total: number | null;
}

export interface SaveOptions {
  onProgress?: (progress: SaveProgress) => void;
  /** A size hint (e.g. the session's recorded bytes) when the answer has no usable length. */
  expectedBytes?: number;
}

async function readWithProgress(response: Response, total: number | null, onProgress?: (p: SaveProgress) => void): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress?.({ received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress?.({ received, total });
  }
  return concatBytes(chunks, received);
}

function expectedLength(response: Response, hint?: number): number | null {
  const length = Number(response.headers.get('Content-Length'));
  if (!response.headers.get('Content-Encoding') && Number.isFinite(length) && length > 0) return length;
  return hint && hint > 0 ? hint : null;
}

export async function saveForOffline(campaignId: string, sessionId: string, options: SaveOptions = {}): Promise<SavedReplay> {
  if (isOffline()) throw new Error(SAVE_OFFLINE_MESSAGE);
  warmPlayer();
  let response: Response;
  try {
    response = await api.request(replayApiPath(campaignId, sessionId), { headers: { [PAGE_STORES_HEADER]: '1' } });
  } catch (error) {
    if (error instanceof TypeError) throw new Error(SAVE_OFFLINE_MESSAGE, { cause: error });
    throw error;
  }
  // The worker answers from the device when its own fetch failed: that is no new copy (the page
  // can hear 'online' before the worker's network is back).
  if (response.headers.get(SOURCE_HEADER) === 'device') throw new Error(SAVE_OFFLINE_MESSAGE);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as unknown;
    throw new Error(replayErrorMessage(new HttpError(response.status, response.statusText, body)));
  }
  const body = await readWithProgress(response, expectedLength(response, options.expectedBytes), options.onProgress);
  const saved = await keepReplay(campaignId, sessionId, body);
  // The notes travel with the copy; a copy without them is still a copy (the replay page adds them when next online).
  const notes = await fetchNotes(campaignId, sessionId).catch(() => null);
  if (notes && (await recordReplayNotes(campaignId, sessionId, notes.notes).catch(() => false))) return { ...saved, notes: notes.notes };
  return saved;
}
