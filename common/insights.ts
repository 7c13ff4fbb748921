// The insights dashboard's range rules, shared by the server (which answers for a range) and
// the PWA (which asks for one and draws its buckets): plain values, no schemas.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** The longest range one insights call covers. */
export const MAX_INSIGHTS_DAYS = 366;
/** The range when the caller gives none: the last 30 days. */
export const DEFAULT_INSIGHTS_DAYS = 30;
/** Ranges up to this long are drawn in hours, longer ones in days. */
export const HOURLY_UP_TO_MS = 2 * DAY_MS;
/** How many rows each top list holds. */
export const TOP_ROWS = 10;
export const TOP_PAGES = 20;

export interface InsightsRange {
  from: number;
  to: number;
  /** The series' bucket: an hour or a day (UTC). */
  bucketMs: number;
}

/**
 * The range an insights call covers: `to` defaults to now, `from` to 30 days before `to` (for
 * a range drawn in days, the start of that day).
 * A reason when it is empty, reversed or longer than 366 days.
 */
export function insightsRange(from: number | undefined, to: number | undefined, now: number): InsightsRange | { error: string } {
  const end = to ?? now;
  const start = from ?? end - DEFAULT_INSIGHTS_DAYS * DAY_MS;
  if (start >= end) return { error: 'from must be before to' };
  if (end - start > MAX_INSIGHTS_DAYS * DAY_MS) return { error: `The range may span at most ${MAX_INSIGHTS_DAYS} days` };
  // A range drawn in days starts at its first day's start (UTC), as its first bucket does: the
  // server then reads whole days from its stored summaries.
  if (end - start <= HOURLY_UP_TO_MS) return { from: start, to: end, bucketMs: HOUR_MS };
  return { from: Math.floor(start / DAY_MS) * DAY_MS, to: end, bucketMs: DAY_MS };
}

/** The start of every bucket of the range, so days or hours without sessions show as zero. */
export function bucketStarts(range: InsightsRange): number[] {
  const starts: number[] = [];
  for (let t = Math.floor(range.from / range.bucketMs) * range.bucketMs; t < range.to; t += range.bucketMs) starts.push(t);
  return starts;
}

/** Histogram bins of times, finer first: a time below `below` ms is rounded to a multiple of `step`; the last bin takes the rest. */
export type TimeBins = readonly (readonly [below: number, step: number])[];
/** Sessions' durations and active times, times between funnel steps: 1 s under 10 minutes, 10 s under an hour, a minute under a day, else an hour. */
export const TIME_BINS: TimeBins = [
  [600_000, 1000],
  [HOUR_MS, 10_000],
  [DAY_MS, 60_000],
  [Infinity, HOUR_MS],
];

/** A time (a whole number of ms, not negative) rounded to its histogram bin; server/insights/bins.ts writes the same in SQL. */
export function timeBin(ms: number, bins: TimeBins = TIME_BINS): number {
  const [, step] = bins.find(([below]) => ms < below) ?? bins[bins.length - 1];
  return Math.floor((ms + step / 2) / step) * step;
}

/** The median of a histogram [value, count][] sorted by value (the mean of the middle two for an even count); 0 for none. */
export function histogramMedian(histogram: [number, number][]): number {
  const total = histogram.reduce((sum, [, c]) => sum + c, 0);
  if (!total) return 0;
  const at = (index: number) => {
    let seen = 0;
    for (const [value, c] of histogram) if ((seen += c) > index) return value;
    return 0;
  };
  return Math.round((at(Math.floor((total - 1) / 2)) + at(Math.ceil((total - 1) / 2))) / 2);
}

/** Histograms added up, sorted by value. */
export function addHistograms(parts: [number, number][][]): [number, number][] {
  const sums = new Map<number, number>();
  for (const part of parts) for (const [value, c] of part) sums.set(value, (sums.get(value) ?? 0) + c);
  return [...sums].sort((a, b) => a[0] - b[0]);
}
