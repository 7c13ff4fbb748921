import { HttpError } from '../api/client.js';
import { isNetworkError, isOffline, OFFLINE_REPLAY_MESSAGE } from './network.js';

/** The service worker's answer for a replay that is not on the device, or a fetch that found no network. */
export function isReplayNotSavedOffline(error: unknown): boolean {
  if (error instanceof HttpError) return error.status === 503 && error.serverMessage === OFFLINE_REPLAY_MESSAGE;
  return isOffline() && isNetworkError(error);
}

/** The replay page's message: offline, what happened in words; else the page's own message. */
export function replayPageMessage(error: unknown, otherwise: (error: unknown) => string): string {
  return isReplayNotSavedOffline(error) ? OFFLINE_REPLAY_MESSAGE : otherwise(error);
}
