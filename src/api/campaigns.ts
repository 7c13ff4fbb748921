import { queryOptions } from '@tanstack/react-query';
import { api, HttpError, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Campaign, CampaignListResponse, CreateCampaignPayload } from '../../common/api-types.js';
import { OfflineWriteError } from '../offline/network.js';
import type { UpdateCampaignPayload } from '../../common/api/campaigns.js';

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: () => [...campaignKeys.all, 'list'] as const,
  /** One workspace's campaigns (the dashboard of that workspace). */
  workspace: (workspaceId: string) => [...campaignKeys.all, 'list', workspaceId] as const,
};

/** On 401 the client refreshes once and retries once, like every call; nothing here retries again. */
export async function fetchCampaigns(client: ApiClient = api, workspaceId?: string): Promise<Campaign[]> {
  const path = workspaceId ? `${API_PATHS.campaigns}?workspace_id=${encodeURIComponent(workspaceId)}` : API_PATHS.campaigns;
  const body = await client.get<CampaignListResponse>(path);
  return Array.isArray(body?.data) ? body.data : [];
}

/** Every campaign of every workspace the user belongs to; with `workspaceId`, that workspace's only. */
export const campaignsQueryOptions = (workspaceId?: string) =>
  queryOptions({
    queryKey: (workspaceId ? campaignKeys.workspace(workspaceId) : campaignKeys.list()) as readonly string[],
    queryFn: () => fetchCampaigns(api, workspaceId),
  });

/** Create errors: the server's error field, else the status, else a generic text. */
export function createErrorMessage(error: unknown, fallback = 'Failed to create campaign.'): string {
  if (error instanceof OfflineWriteError) return error.message;
  if (error instanceof HttpError) return error.serverMessage ?? `Request failed with status ${error.status}`;
  return fallback;
}

export async function createCampaign(payload: CreateCampaignPayload, client: ApiClient = api): Promise<Campaign> {
  const body = await client.post<{ data: Campaign }>(API_PATHS.createCampaign, payload);
  return body.data;
}

/** Saves the changed fields; the server answers the whole campaign. Errors read as createErrorMessage's. */
export async function updateCampaign(campaignId: string, payload: UpdateCampaignPayload, client: ApiClient = api): Promise<Campaign> {
  const body = await client.patch<{ data: Campaign }>(API_PATHS.updateCampaign(campaignId), payload);
  return body.data;
}

/** Delete errors: 'Error: {status} {statusText}' or 'Failed to delete campaign'. */
export function deleteErrorMessage(error: unknown): string {
  if (error instanceof OfflineWriteError) return error.message;
  if (error instanceof HttpError) return `Error: ${error.status} ${error.statusText}`.trim();
  return 'Failed to delete campaign';
}

export async function deleteCampaign(campaignId: string, client: ApiClient = api): Promise<void> {
  await client.delete(API_PATHS.deleteCampaign(campaignId));
}

export const loaderScriptKeys = { source: ['loaderScript'] as const };

/** The static loader the dashboard turns into each campaign's script (its id and base URL filled in). */
export async function fetchLoaderScript(client: ApiClient = api): Promise<string> {
  const response = await client.request(API_PATHS.loaderScript, { headers: { Accept: 'application/javascript, text/javascript, */*' } });
  if (!response.ok) throw new HttpError(response.status, response.statusText, null);
  return response.text();
}

export const loaderScriptQueryOptions = () =>
  queryOptions({ queryKey: loaderScriptKeys.source, queryFn: () => fetchLoaderScript(), staleTime: 10 * 60 * 1000 });
