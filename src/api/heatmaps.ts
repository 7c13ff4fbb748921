import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Heatmap, HeatmapClicks, HeatmapPages } from '../../common/api/heatmaps.js';
import type { ViewportClass } from '../../common/devices.js';
import { DAY_MS } from '../../common/insights.js';
import { INSIGHTS_DAYS, type InsightsDays } from './insights.js';
import { filterParams } from '../lib/sessionFilters.js';
import type { HeatmapFilters } from '../lib/heatmapFilters.js';
import { replayQueryOptions } from './replay.js';

/** The ranges the heatmaps screen offers: the insights screen's. */
export const HEATMAP_DAYS = INSIGHTS_DAYS;

/** What a heatmap is asked for: no path (or device) means the page (and device class) with most views. */
export interface HeatmapChoice {
  path?: string;
  device?: ViewportClass;
  days: InsightsDays;
  /** The sessions list's filters: only the matching sessions' clicks. */
  filters?: HeatmapFilters;
}

/** Keyed by the range's length, not its ends: offline, the last one fetched is read from the persisted cache. */
export const heatmapKeys = {
  campaign: (campaignId: string) => ['heatmaps', campaignId] as const,
  pages: (campaignId: string, days: InsightsDays) => [...heatmapKeys.campaign(campaignId), 'pages', days] as const,
  heatmap: (campaignId: string, choice: HeatmapChoice) =>
    [...heatmapKeys.campaign(campaignId), 'map', choice.path ?? '', choice.device ?? '', choice.days, choice.filters ?? {}] as const,
  clicks: (campaignId: string, path: string, device: ViewportClass, selector: string, days: InsightsDays, filters: HeatmapFilters = {}) =>
    [...heatmapKeys.campaign(campaignId), 'clicks', path, device, selector, days, filters] as const,
};

const range = (days: InsightsDays, now = Date.now()) => ({ from: String(now - days * DAY_MS), to: String(now) });

export const heatmapPagesQueryOptions = (campaignId: string, days: InsightsDays, client: ApiClient = api) =>
  queryOptions({
    queryKey: heatmapKeys.pages(campaignId, days),
    queryFn: () => client.get<HeatmapPages>(`${API_PATHS.heatmapPages(campaignId)}?${new URLSearchParams(range(days))}`),
  });

export const heatmapQueryOptions = (campaignId: string, choice: HeatmapChoice, client: ApiClient = api) =>
  queryOptions({
    queryKey: heatmapKeys.heatmap(campaignId, choice),
    queryFn: async ({ client: queryClient }) => {
      const params = new URLSearchParams({
        ...range(choice.days),
        ...(choice.path ? { path: choice.path } : {}),
        ...(choice.device ? { device: choice.device } : {}),
      });
      const heatmap = await client.get<Heatmap>(`${API_PATHS.heatmap(campaignId)}?${filterParams(choice.filters ?? {}, params)}`);
      fetchSnapshotReplay(queryClient, campaignId, heatmap);
      return heatmap;
    },
  });

/**
 * The page under the heat is rebuilt from the snapshot session's replay: it is asked for as soon
 * as the answer is in, while the screen renders the answer (not once the snapshot's view mounts).
 */
function fetchSnapshotReplay(queryClient: QueryClient, campaignId: string, heatmap: Heatmap): void {
  if (heatmap.snapshot) void queryClient.prefetchQuery(snapshotReplayQueryOptions(campaignId, heatmap.snapshot.sessionId));
}

/** The snapshot session's replay: the page at a past moment never changes, so the copy held is kept. */
export const snapshotReplayQueryOptions = (campaignId: string, sessionId: string) => ({
  ...replayQueryOptions(campaignId, sessionId),
  staleTime: Number.POSITIVE_INFINITY,
});

export const heatmapClicksQueryOptions = (
  campaignId: string,
  path: string,
  device: ViewportClass,
  selector: string,
  days: InsightsDays,
  filters: HeatmapFilters = {},
  client: ApiClient = api,
) =>
  queryOptions({
    queryKey: heatmapKeys.clicks(campaignId, path, device, selector, days, filters),
    queryFn: () =>
      client.get<HeatmapClicks>(
        `${API_PATHS.heatmapClicks(campaignId)}?${filterParams(filters, new URLSearchParams({ ...range(days), path, device, selector }))}`,
      ),
  });

/** The heatmaps screen's load error: 'Error: {status} {statusText}', else 'Failed to fetch the heatmap'. */
export function heatmapErrorMessage(error: unknown): string {
  if (error instanceof HttpError) return `Error: ${error.status} ${error.statusText}`.trim();
  return 'Failed to fetch the heatmap';
}
