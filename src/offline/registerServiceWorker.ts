import { Workbox } from 'workbox-window';

// Registers the service worker with workbox-window. A new version never reloads the page by
// itself (a replay may be playing): it waits until the user accepts the update prompt.

type Listener = () => void;
let workbox: Workbox | null = null;
let updateWaiting = false;
const listeners = new Set<Listener>();
const UPDATE_CHECK_MS = 60 * 60 * 1000;

function setWaiting(value: boolean) {
  updateWaiting = value;
  listeners.forEach((listener) => listener());
}

export function registerServiceWorker(url = '/sw.js'): void {
  if (workbox || !('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  workbox = new Workbox(url, { scope: '/' });
  workbox.addEventListener('waiting', () => setWaiting(true));
  workbox
    .register()
    .then((registration) => {
      // Installed apps stay open for days: look for a new version now and then.
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    })
    // Registration can be refused (blocked by policy, some private modes): the app still works
    // online, only without its offline library.
    .catch((error: unknown) => console.warn('Service worker not registered; offline replays are unavailable.', error));
}

export const isUpdateWaiting = () => updateWaiting;

export function onUpdateWaitingChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The user accepted: activate the waiting worker, then reload once it controls the page. */
export function acceptUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

export function dismissUpdate(): void {
  setWaiting(false);
}
