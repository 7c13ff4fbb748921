import { setImmediate as breathe } from 'node:timers/promises';

/**
 * Each item through `each`, letting the event loop in whenever a run of them has held it for
 * `turnMs`: CPU work over thousands of items on the request thread (paths judged by page
 * patterns) never keeps other requests waiting longer than that.
 */
export async function inTurns<T>(items: Iterable<T>, each: (item: T) => void, turnMs = 20): Promise<void> {
  let turn = performance.now();
  for (const item of items) {
    if (performance.now() - turn > turnMs) {
      await breathe();
      turn = performance.now();
    }
    each(item);
  }
}
