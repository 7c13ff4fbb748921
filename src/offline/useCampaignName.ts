import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { campaignsQueryOptions } from '../api/campaigns.js';
import { rememberCampaignName } from './replayStore.js';

/**
 * The campaign's name from the campaign list (the persisted cache answers offline), else the
 * name kept with a saved replay. Whenever the list knows it, it is kept with the campaign's saved
 * replays; `savedKey` (the saved replay on screen) re-runs that once the replay lands on the device.
 */
export function useCampaignName(campaignId: string, kept?: { key: string; campaignName?: string } | null): string | undefined {
  const { data: listed } = useQuery({
    ...campaignsQueryOptions(),
    enabled: Boolean(campaignId),
    select: (campaigns) => campaigns.find((campaign) => campaign.id === campaignId)?.name,
  });
  const savedKey = kept?.key;
  useEffect(() => {
    if (listed) void rememberCampaignName(campaignId, listed).catch(() => undefined);
  }, [campaignId, listed, savedKey]);
  return listed ?? kept?.campaignName;
}
