import { queryOptions } from '@tanstack/react-query';
import type { SearchSchemaInput } from '@tanstack/react-router';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Insights } from '../../common/api/insights.js';
import { DAY_MS, DEFAULT_INSIGHTS_DAYS } from '../../common/insights.js';

/** The ranges the insights screen offers, in days back from now (1 is the last 24 hours, in hours). */
export const INSIGHTS_DAYS = [1, 7, 30, 90] as const;
export type InsightsDays = (typeof INSIGHTS_DAYS)[number];
/** The range a screen shows when its URL names none: the server's own default. */
export const DEFAULT_DAYS: InsightsDays = DEFAULT_INSIGHTS_DAYS;

/** A range from a URL: one the screens offer, else the default. */
export const daysOf = (value: unknown): InsightsDays => INSIGHTS_DAYS.find((days) => days === Number(value)) ?? DEFAULT_DAYS;
/** What a screen's URL leaves out of its range (TanStack Router's stripSearchParams takes it away). */
export const RANGE_DEFAULTS = { days: DEFAULT_DAYS };
/** The validateSearch of a screen whose URL holds only its range (insights, funnels). */
export const validateRange = (search: { days?: InsightsDays } & SearchSchemaInput) => ({ days: daysOf(search.days) });

/**
 * Keyed by the range's length, not its ends: "the last 7 days" read offline is the one last
 * fetched (from the persisted cache), whatever the time now.
 */
export const insightsKeys = {
  campaign: (campaignId: string) => ['insights', campaignId] as const,
  range: (campaignId: string, days: InsightsDays) => [...insightsKeys.campaign(campaignId), days] as const,
};

export function fetchInsights(campaignId: string, days: InsightsDays, now = Date.now(), client: ApiClient = api): Promise<Insights> {
  const params = new URLSearchParams({ from: String(now - days * DAY_MS), to: String(now) });
  return client.get<Insights>(`${API_PATHS.insights(campaignId)}?${params}`);
}

export const insightsQueryOptions = (campaignId: string, days: InsightsDays) =>
  queryOptions({ queryKey: insightsKeys.range(campaignId, days), queryFn: () => fetchInsights(campaignId, days) });

/** The insights screen's load error: 'Error: {status} {statusText}', else 'Failed to fetch insights'. */
export function insightsErrorMessage(error: unknown): string {
  if (error instanceof HttpError) return `Error: ${error.status} ${error.statusText}`.trim();
  return 'Failed to fetch insights';
}
