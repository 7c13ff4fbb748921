// The sessions list's filters the heatmaps screen offers (a compact set), as they live in its URL
// and go to GET /api/v1/heatmaps/{campaignId}. The screen's page, device class and range are its
// own; these narrow the sessions whose clicks are drawn.
import { validateSessionFilters, type SessionFilters } from './sessionFilters.js';
import { SESSION_TYPES, type SessionType } from '../../common/session-list.js';

const KEYS = ['hasErrors', 'hasRageClicks', 'hasDeadClicks', 'user', 'event', 'country', 'browser'] as const;

export type HeatmapFilters = Pick<SessionFilters, (typeof KEYS)[number]> & { type?: SessionType };

/** The heatmaps route's filters from its search: anything else, or anything invalid, is dropped. */
export function validateHeatmapFilters(search: Record<string, unknown>): HeatmapFilters {
  const all = validateSessionFilters(search);
  // Every key named, undefined when dropped (the router keeps a raw value its validateSearch leaves out).
  const filters: HeatmapFilters = Object.fromEntries(KEYS.map((key) => [key, all[key]]));
  filters.type = SESSION_TYPES.find((t) => t === search.type);
  return filters;
}

/**
 * The sessions list the heatmap's clicks come from, as the list's URL takes it: the same filters,
 * the heatmap's device class as the device, its range as the start, its page as a visited page
 * (not a pattern's "*"). The list's type is not in its URL: a type filter is not carried.
 */
export function sessionsOfHeatmap(
  filters: HeatmapFilters,
  heatmap: { path: string; device: SessionFilters['device']; from: number; to: number },
): SessionFilters {
  const { type: _type, ...list } = filters;
  return { ...list, device: heatmap.device, from: heatmap.from, to: heatmap.to, ...(heatmap.path.includes('*') ? {} : { url: heatmap.path }) };
}
