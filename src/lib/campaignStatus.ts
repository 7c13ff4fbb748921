import type { Campaign } from '../../common/api-types.js';

// A campaign's status is computed from the current time, never stored: Pending before its start,
// Expired after its end, Active in between.

export type CampaignStatus = 'Active' | 'Pending' | 'Expired';

export function campaignStatus(campaign: Pick<Campaign, 'start_date_time' | 'end_date_time'>, now = Date.now()): CampaignStatus {
  if (now < campaign.start_date_time) return 'Pending';
  if (now > campaign.end_date_time) return 'Expired';
  return 'Active';
}

export interface CampaignCounters {
  total: number;
  active: number;
  pending: number;
  expired: number;
}

export function countCampaigns(campaigns: Campaign[], now = Date.now()): CampaignCounters {
  const counters = { total: campaigns.length, active: 0, pending: 0, expired: 0 };
  for (const campaign of campaigns) {
    const status = campaignStatus(campaign, now);
    if (status === 'Active') counters.active += 1;
    else if (status === 'Pending') counters.pending += 1;
    else counters.expired += 1;
  }
  return counters;
}

export type StatusFilter = 'all' | CampaignStatus;

/** Dashboard filter: search over name and domains (case-insensitive) plus the status select. */
export function filterCampaigns(campaigns: Campaign[], search: string, status: StatusFilter, now = Date.now()): Campaign[] {
  const needle = search.trim().toLowerCase();
  return campaigns.filter((campaign) => {
    if (status !== 'all' && campaignStatus(campaign, now) !== status) return false;
    if (!needle) return true;
    return campaign.name.toLowerCase().includes(needle) || campaign.domains.toLowerCase().includes(needle);
  });
}
