import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idRuns, inRuns, joinRuns, MAX_ID_RUNS, readRuns, runsMeet } from '../../../common/id-runs.js';

// The blocked node ids a session carries between batches (common/id-runs.ts): as runs they must
// hold exactly the ids given, meet exactly when the sets share one, and stay under the cap.

const ids = fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 120 });

describe('id runs', () => {
  it('hold exactly the ids they were made from', () => {
    fc.assert(
      fc.property(ids, fc.integer({ min: 0, max: 301 }), (list, probe) => {
        expect(inRuns(idRuns(list, Infinity), probe)).toBe(list.includes(probe));
      }),
    );
  });

  it('meet when the two sets share an id, and join to their union', () => {
    fc.assert(
      fc.property(ids, ids, (a, b) => {
        expect(runsMeet(idRuns(a, Infinity), idRuns(b, Infinity))).toBe(a.some((id) => b.includes(id)));
        expect(joinRuns(idRuns(a, Infinity), idRuns(b, Infinity), Infinity)).toEqual(idRuns([...a, ...b], Infinity));
      }),
    );
  });

  it('keep the newest runs past the cap, and read back only what is a run', () => {
    const apart = Array.from({ length: MAX_ID_RUNS + 10 }, (_, i) => 2 * i);
    const runs = idRuns(apart);
    expect(runs).toHaveLength(MAX_ID_RUNS);
    expect(inRuns(runs, apart[apart.length - 1])).toBe(true);
    expect(inRuns(runs, 0)).toBe(false);
    expect(readRuns([[3, 5], [4, 9], [7, 2], 'x', [1.5, 2], [11, 11]])).toEqual([
      [3, 9],
      [11, 11],
    ]);
    expect(readRuns(apart.map((id) => [id, id]))).toHaveLength(MAX_ID_RUNS);
    expect(readRuns('not runs')).toEqual([]);
  });
});
