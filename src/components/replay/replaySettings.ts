// How a session's recording is played wherever the app shows one (the replay page, a shared
// link, an opened file): 1024×768 when its meta event gives no size, speeds 0.5× to 8× as on the
// landing demo, starting at 1×.

export const REPLAY_WIDTH = 1024;
export const REPLAY_HEIGHT = 768;
export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8];

/** The spec's player defaults: 10 s with no input is an inactive gap, fast-forwarded at most 360×. */
export const INACTIVITY_GAP_MS = 10_000;
export const MAX_SKIP_SPEED = 360;
/**
 * rrweb fast-forwards a gap at (gap ÷ 5 s)×, so every gap, long or short, lasts about 5 s on
 * screen (a 15 s gap runs at 3×, a minute at 12×). Ours lasts about 1 s: a minute idle runs at
 * 60×, six minutes or more at the spec's 360× (an hour idle then takes 10 s).
 */
const RRWEB_SKIP_SECONDS = 5;
export const SKIP_GAP_SECONDS = 1;

/** The speed a skipped gap runs at, from the speed rrweb chose for it; never slower than `playing`. */
export function skipSpeed(rrwebSpeed: number, playing = 1): number {
  return Math.max(playing, Math.min(MAX_SKIP_SPEED, Math.round((rrwebSpeed * RRWEB_SKIP_SECONDS) / SKIP_GAP_SECONDS)));
}
