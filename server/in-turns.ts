import { setImmediate as breathe } from 'node:timers/promises';

/**
 * Each item through `each`, letting the event loop in whenever a run of them has held it for
 * `turnMs`: CPU work over thousands of items on the request thread (paths judged by page
 * patterns, a heavy read's rows) never keeps other requests waiting longer than that. With
 * `stop`, `stopped()` is thrown at the first turn after it aborts, and at the end.
 */
export async function inTurns<T>(
  items: Iterable<T>,
  each: (item: T) => void,
  turnMs = 20,
  stop?: { signal: AbortSignal; stopped: () => Error },
): Promise<void> {
  let turn = performance.now();
  for (const item of items) {
    if (performance.now() - turn > turnMs) {
      await breathe();
      if (stop?.signal.aborted) throw stop.stopped();
      turn = performance.now();
    }
    each(item);
  }
  if (stop?.signal.aborted) throw stop.stopped();
}
