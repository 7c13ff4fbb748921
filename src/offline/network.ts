// Writes never queue silently while offline: they are refused with this message, so the user
// knows nothing was sent. The service worker answers a failed write with it ({error}), and the
// page checks before sending.

export const OFFLINE_WRITE_MESSAGE = "You're offline. Nothing was sent — try again when you're back online.";

export const OFFLINE_REPLAY_MESSAGE = "You're offline and this replay is not saved on this device.";

/** Header on replay answers the service worker served from the device. */
export const SOURCE_HEADER = 'X-Tapedeck-Source';

export class OfflineWriteError extends Error {
  constructor() {
    super(OFFLINE_WRITE_MESSAGE);
    this.name = 'OfflineWriteError';
  }
}

export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Throws OfflineWriteError when the browser knows it has no network. */
export function assertOnlineForWrite(): void {
  if (isOffline()) throw new OfflineWriteError();
}

/** A fetch that failed for lack of network (not an HTTP error answer). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'NetworkError') || error instanceof OfflineWriteError;
}
