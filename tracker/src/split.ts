/**
 * Cuts serialised events into runs whose JSON array stays under maxBytes. An event bigger
 * than that travels alone: batches are split, never dropped.
 */
export function splitEvents(events: string[], maxBytes: number, size: (event: string) => number = (e) => e.length): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  let bytes = 2;
  for (const event of events) {
    const n = size(event) + 1;
    if (run.length && bytes + n > maxBytes) {
      runs.push(run);
      run = [];
      bytes = 2;
    }
    run.push(event);
    bytes += n;
  }
  if (run.length) runs.push(run);
  return runs;
}
