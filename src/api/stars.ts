import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { StarResponse } from '../../common/api/sessions.js';

export const starKey = (campaignId: string, sessionId: string) => ['star', campaignId, sessionId] as const;

export const fetchStar = (campaignId: string, sessionId: string, client: ApiClient = api) => client.get<StarResponse>(API_PATHS.star(campaignId, sessionId));

/** Stars (PUT) or unstars (DELETE) a session; answers the star as stored. */
export function setStar(campaignId: string, sessionId: string, starred: boolean, client: ApiClient = api): Promise<StarResponse> {
  const path = API_PATHS.star(campaignId, sessionId);
  return starred ? client.put<StarResponse>(path) : client.delete<StarResponse>(path);
}
