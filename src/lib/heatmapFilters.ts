// The sessions list's filters the heatmaps screen offers (a compact set), as they live in its URL
// and go to GET /api/v1/heatmaps/{campaignId}. The screen's page, device class and range are its
// own; these narrow the sessions whose clicks are drawn.
import { validateSessionFilters, type SessionFilters } from './sessionFilters.js';
import { HEAT_LAYERS, type HeatLayer } from './heatLayers.js';
import { daysOf, RANGE_DEFAULTS, type InsightsDays } from '../api/insights.js';
import { SESSION_TYPES, type SessionType } from '../../common/session-list.js';
import { PATH_MAX } from '../../common/heatmaps.js';
import { VIEWPORT_CLASSES, type ViewportClass } from '../../common/devices.js';

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

/** The heatmaps screen's URL: its page, device class, layer and range, and the filters. */
export type HeatmapRouteSearch = HeatmapFilters & { path?: string; device?: ViewportClass; layer: HeatLayer; days: InsightsDays };

/** What the heatmaps screen's URL leaves out (TanStack Router's stripSearchParams takes them away). */
export const HEATMAP_DEFAULTS = { ...RANGE_DEFAULTS, layer: 'all' } as const satisfies Partial<HeatmapRouteSearch>;

/** The heatmaps screen's validateSearch: anything invalid dropped (page, device) or set to its default (layer, range). */
export function validateHeatmapSearch(search: Record<string, unknown>): HeatmapRouteSearch {
  const path = typeof search.path === 'string' && search.path.startsWith('/') && search.path.length <= PATH_MAX ? search.path : undefined;
  return {
    ...validateHeatmapFilters(search),
    path,
    device: VIEWPORT_CLASSES.find((d) => d === search.device),
    layer: HEAT_LAYERS.find((l) => l.layer === search.layer)?.layer ?? HEATMAP_DEFAULTS.layer,
    days: daysOf(search.days),
  };
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
