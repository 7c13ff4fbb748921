import { describe, expect, it } from 'vitest';
import { inTurns } from '../../../server/in-turns.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('work in turns', () => {
  it('lets the event loop in once a run of items has held it for the turn, and does every item in order', async () => {
    const seen: string[] = [];
    // Waits its turn behind the items; it comes in when they let it.
    setImmediate(() => seen.push('other'));
    await inTurns(
      [1, 2, 3, 4, 5, 6],
      (item) => {
        seen.push(`item ${item}`);
        busy(15);
      },
      20,
    );
    // 90 ms of items, turns of 20 ms: the other came in among them, not after them all.
    expect(seen.filter((s) => s !== 'other')).toEqual([1, 2, 3, 4, 5, 6].map((i) => `item ${i}`));
    expect(seen.indexOf('other')).toBeGreaterThan(0);
    expect(seen.indexOf('other')).toBeLessThan(seen.length - 1);
  });
});
