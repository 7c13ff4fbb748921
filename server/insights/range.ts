import { insightsRange, type InsightsRange } from '../../common/insights.js';
import { badRequest } from '../http/errors.js';

/**
 * The range an owner's read covers (Insights, funnel results, heatmaps), by common/insights.ts
 * insightsRange: the last DEFAULT_INSIGHTS_DAYS days unless told, at most MAX_INSIGHTS_DAYS,
 * whole days past two days; 400 with the reason otherwise.
 */
export function requestedRange(from: number | undefined, to: number | undefined, now = Date.now()): InsightsRange {
  const range = insightsRange(from, to, now);
  if ('error' in range) throw badRequest(range.error);
  return range;
}
