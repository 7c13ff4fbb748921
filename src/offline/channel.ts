// Tells every page of the app (and the page that made the change) that the offline library
// changed, so /saved and the 'Available offline' badges stay current when the service worker
// saves a replay in the background.

export const OFFLINE_CHANNEL = 'tapedeck-offline';

export type OfflineChange = { type: 'replays' } | { type: 'wiped' } | { type: 'quota'; message: string };

type Listener = (change: OfflineChange) => void;
const local = new Set<Listener>();
let channel: BroadcastChannel | null | undefined;

function getChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(OFFLINE_CHANNEL) : null;
    channel?.addEventListener('message', (event: MessageEvent<OfflineChange>) => local.forEach((listener) => listener(event.data)));
  }
  return channel;
}

export function notifyOfflineChange(change: OfflineChange): void {
  local.forEach((listener) => listener(change));
  getChannel()?.postMessage(change);
}

export function onOfflineChange(listener: Listener): () => void {
  getChannel();
  local.add(listener);
  return () => local.delete(listener);
}
