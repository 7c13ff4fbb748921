/**
 * rrweb-player's code and styles: one loader, so every caller asks for the same chunks. The
 * service worker precaches both (vite.config.ts), so they load offline too.
 */
export function loadPlayer() {
  return Promise.all([import('rrweb-player'), import('rrweb-player/dist/style.css')]);
}

/** Starts loading the player ahead of need (the worker's runtime cache keeps what it fetched). */
export function warmPlayer(): void {
  void loadPlayer().catch(() => undefined);
}

export const PLAYER_INIT_FAILED = 'Failed to initialize replay player';
export const PLAYER_CODE_OFFLINE =
  "The replay player could not be loaded: this device is offline and has not kept the player's code yet. Open Tapedeck once while online, then try again.";

/** What a player that could not start says in its place (never an empty grey box). */
export function playerFailureMessage(error: unknown, online = typeof navigator === 'undefined' || navigator.onLine): string {
  // A chunk that could not be fetched: "Failed to fetch dynamically imported module", "Importing a module script failed".
  const loading = error instanceof TypeError && /import|module|fetch/i.test(error.message);
  return loading && !online ? PLAYER_CODE_OFFLINE : PLAYER_INIT_FAILED;
}
