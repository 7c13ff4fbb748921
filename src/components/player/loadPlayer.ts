/** rrweb-player's code and styles: one loader, so every caller asks for the same chunks. */
export function loadPlayer() {
  return Promise.all([import('rrweb-player'), import('rrweb-player/dist/style.css')]);
}

/** Starts loading the player ahead of need (the worker's runtime cache keeps what it fetched). */
export function warmPlayer(): void {
  void loadPlayer().catch(() => undefined);
}
