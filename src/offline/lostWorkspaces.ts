import type { CampaignListResponse } from '../../common/api-types.js';
import { api, type ApiClient } from '../api/client.js';
import { API_PATHS } from '../api/paths.js';
import { removeReplaysOutside } from './replayStore.js';

// A member removed from a workspace keeps no copy of its replays (issue 37): after each sign-in
// the device drops the saved replays of campaigns the account no longer reaches. The list is every
// campaign of every workspace the account is in; when it cannot be had (offline, a failure, an
// answer that is not a list) nothing is removed.

export async function dropLostReplays(client: ApiClient = api): Promise<string[]> {
  const answer = await client.get<CampaignListResponse>(API_PATHS.campaigns);
  if (!Array.isArray(answer?.data)) return [];
  return removeReplaysOutside(new Set(answer.data.map((campaign) => campaign.id)));
}
