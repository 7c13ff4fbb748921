import type { ServerResponse } from 'node:http';

/**
 * Ends a response whose client has stopped reading: once its socket has wanted a drain for
 * `ms` without one, `onStall` runs (by default the socket is destroyed). A retrieval or live
 * stream nobody reads would otherwise keep its heavy-replay slot, its place in a user's budget
 * and its buffers for as long as the client keeps the connection open. Returns a stop function;
 * the watch also stops by itself when the response closes.
 */
export function watchStalledReader(raw: ServerResponse, ms: number, onStall: () => void = () => raw.destroy()): () => void {
  let waitingSince: number | null = null;
  const drained = () => (waitingSince = null);
  const check = () => {
    if (!raw.writableNeedDrain) {
      waitingSince = null;
      return;
    }
    const now = Date.now();
    waitingSince ??= now;
    if (now - waitingSince >= ms) {
      stop();
      onStall();
    }
  };
  const timer = setInterval(check, Math.max(10, Math.floor(ms / 4)));
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    raw.off('drain', drained);
    raw.off('close', stop);
  };
  raw.on('drain', drained);
  raw.once('close', stop);
  return stop;
}
