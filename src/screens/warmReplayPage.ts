import { warmPlayer } from '../components/player/loadPlayer.js';

/**
 * The replay page's code, loaded ahead of need when the app opens on a replay: the screen, the
 * player and the answer's reader. The events themselves are asked for by the route as before:
 * downloading them during the app's start (through the service worker, which keeps a copy) held
 * up the app's own code on a 2-core machine, and `npm run bench` measured the first frame slower.
 */
export function warmReplayPage(): void {
  warmPlayer();
  void Promise.all([import('./SessionReplay.js'), import('../api/replayStream.js'), import('../lib/liveFeed.js')]).catch(() => undefined);
}
