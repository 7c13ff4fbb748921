import { queryOptions } from '@tanstack/react-query';
import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Ok } from '../../common/api-types.js';
import type { Funnel, FunnelBody, FunnelChanges, FunnelList, FunnelResult } from '../../common/api/funnels.js';
import { DAY_MS } from '../../common/insights.js';
import type { InsightsDays } from './insights.js';

export const funnelKeys = {
  campaign: (campaignId: string) => ['funnels', campaignId] as const,
  result: (campaignId: string, funnelId: string, days: InsightsDays) => ['funnels', campaignId, funnelId, days] as const,
};

export const funnelsQueryOptions = (campaignId: string, client: ApiClient = api) =>
  queryOptions({ queryKey: funnelKeys.campaign(campaignId), queryFn: () => client.get<FunnelList>(API_PATHS.funnels(campaignId)) });

/** A funnel over the last `days` days (keyed by the range's length, as the insights are, for offline reading). */
export const funnelResultQueryOptions = (campaignId: string, funnelId: string, days: InsightsDays, client: ApiClient = api) =>
  queryOptions({
    queryKey: funnelKeys.result(campaignId, funnelId, days),
    queryFn: () => {
      const now = Date.now();
      const params = new URLSearchParams({ from: String(now - days * DAY_MS), to: String(now) });
      return client.get<FunnelResult>(`${API_PATHS.funnel(campaignId, funnelId)}/result?${params}`);
    },
  });

export const createFunnel = (campaignId: string, body: FunnelBody, client: ApiClient = api) => client.post<Funnel>(API_PATHS.funnels(campaignId), body);

export const updateFunnel = (campaignId: string, funnelId: string, changes: FunnelChanges, client: ApiClient = api) =>
  client.patch<Funnel>(API_PATHS.funnel(campaignId, funnelId), changes);

export const deleteFunnel = (campaignId: string, funnelId: string, client: ApiClient = api) => client.delete<Ok>(API_PATHS.funnel(campaignId, funnelId));
