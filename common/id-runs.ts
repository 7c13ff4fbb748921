// A set of rrweb node ids as sorted, disjoint runs [first, last]. rrweb numbers a snapshot's
// nodes in document order, so a blocked element and everything under it is one run: what a
// session carries between batches stays small, and a cap bounds it whatever a page does.

export type IdRuns = [number, number][];

/** Runs a session carries at most (~8 KB of JSON): past it the highest ids, the newest nodes, are kept. */
export const MAX_ID_RUNS = 500;

/** Runs sorted by start, overlapping or adjacent ones joined, the last `cap` kept. */
function normalised(runs: IdRuns, cap: number): IdRuns {
  const sorted = runs.slice().sort((a, b) => a[0] - b[0]);
  const joined: IdRuns = [];
  for (const [first, last] of sorted) {
    const previous = joined[joined.length - 1];
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else joined.push([first, last]);
  }
  return joined.slice(-cap);
}

/** The runs of a set of ids. */
export const idRuns = (ids: Iterable<number>, cap = MAX_ID_RUNS): IdRuns =>
  normalised(
    [...ids].map((id) => [id, id]),
    cap,
  );

/** The runs of both sets. */
export const joinRuns = (a: IdRuns, b: IdRuns, cap = MAX_ID_RUNS): IdRuns => normalised([...a, ...b], cap);

/** Whether `id` lies in one of the runs (a binary search). */
export function inRuns(runs: IdRuns, id: number): boolean {
  let low = 0;
  let high = runs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (id < runs[middle][0]) high = middle - 1;
    else if (id > runs[middle][1]) low = middle + 1;
    else return true;
  }
  return false;
}

/** Whether two sets share an id (both as runs). */
export function runsMeet(a: IdRuns, b: IdRuns): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i][1] < b[j][0]) i++;
    else if (b[j][1] < a[i][0]) j++;
    else return true;
  }
  return false;
}

const isRun = (value: unknown): value is [number, number] =>
  Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && Number.isSafeInteger(value[1]) && value[0] <= value[1];

/** Runs as stored, read back defensively: what is not a run is left out, the cap holds. */
export const readRuns = (value: unknown): IdRuns => (Array.isArray(value) ? normalised(value.filter(isRun), MAX_ID_RUNS) : []);
