import type { Insights } from '../../../common/api/insights.js';
import { HOUR_MS } from '../../../common/insights.js';

// What the insights charts draw, apart from uPlot (which needs a canvas): the series as uPlot's
// columns, the bucket under a point of the x axis, and the sentence a screen reader hears.

type Bucket = Insights['series'][number];
export type Kind = 'rageClicks' | 'deadClicks' | 'quickBacks' | 'excessiveScrolls' | 'errors' | 'failedRequests';

/** The frustration kinds, their names and their lines' dashes (canvas setLineDash; none for a solid line). */
export const KINDS: [Kind, string, number[]][] = [
  ['rageClicks', 'Rage clicks', []],
  ['deadClicks', 'Dead clicks', [6, 3]],
  ['quickBacks', 'Quick backs', [2, 3]],
  ['excessiveScrolls', 'Excessive scrolling', [10, 4]],
  ['errors', 'Errors', [6, 2, 2, 2]],
  ['failedRequests', 'Failed requests', [1, 2]],
];

/** A bucket's count of a kind (0 in an answer cached before the series carried it). */
export const countOf = (bucket: Bucket, kind: Kind) => bucket[kind] ?? 0;

export const bucketUnit = (bucketMs: number) => (bucketMs <= HOUR_MS ? 'hour' : 'day');

export function bucketLabel(t: number, bucketMs: number): string {
  const date = new Date(t);
  return bucketMs <= HOUR_MS
    ? date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/** The x axis's span: from the first bucket's start to the last one's end (ms). */
export function xRange({ series, bucketMs }: Insights): [number, number] {
  const start = series[0]?.t ?? 0;
  return [start, start + Math.max(1, series.length) * bucketMs];
}

/** Each bucket is drawn at its middle, so a bar fills its hour or day. */
const middles = ({ series, bucketMs }: Insights) => series.map((b) => b.t + bucketMs / 2);

/** Stacked bars: the whole bar (humans + bots, drawn in the bots' colour) and the humans over its foot. */
export function sessionsColumns(insights: Insights): [number[], number[], number[]] {
  return [middles(insights), insights.series.map((b) => b.humans + b.bots), insights.series.map((b) => b.humans)];
}

export function frustrationColumns(insights: Insights): [number[], ...number[][]] {
  return [middles(insights), ...KINDS.map(([kind]) => insights.series.map((b) => countOf(b, kind)))];
}

/** The bucket whose hour or day holds `t` (ms), or null off the series. */
export function bucketAt({ series, bucketMs }: Insights, t: number): Bucket | null {
  if (series.length === 0) return null;
  return series[Math.floor((t - series[0].t) / bucketMs)] ?? null;
}

export const bucketSessions = (b: Bucket, bucketMs: number) => `${bucketLabel(b.t, bucketMs)}: ${b.humans} humans, ${b.bots} bots`;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The sessions chart for a screen reader: the totals, the busiest bucket, and where the figures are. */
export function sessionsSummary(insights: Insights): string {
  const { series, bucketMs } = insights;
  const unit = bucketUnit(bucketMs);
  const busiest = series.reduce<Bucket | null>((top, b) => (b.humans + b.bots > (top ? top.humans + top.bots : 0) ? b : top), null);
  const most = busiest ? `, the most (${busiest.humans + busiest.bots}) on ${bucketLabel(busiest.t, bucketMs)}` : '';
  const humans = sum(series.map((b) => b.humans));
  const bots = sum(series.map((b) => b.bots));
  return `Sessions per ${unit} over ${series.length} ${unit}s: ${humans} humans and ${bots} bots in all${most}. "Show as table" lists each ${unit} with a link to its sessions.`;
}

export function frustrationSummary(insights: Insights): string {
  const { series, bucketMs } = insights;
  const unit = bucketUnit(bucketMs);
  const totals = KINDS.map(([kind, name]) => `${sum(series.map((b) => countOf(b, kind)))} ${name.toLowerCase()}`).join(', ');
  return `Frustration per ${unit} over ${series.length} ${unit}s: ${totals} in all. "Show frustration as table" gives the figures.`;
}

export const bucketFrustration = (b: Bucket, bucketMs: number) =>
  `${bucketLabel(b.t, bucketMs)}: ${KINDS.map(([kind, name]) => `${countOf(b, kind)} ${name.toLowerCase()}`).join(', ')}`;
