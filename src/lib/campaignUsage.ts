import type { Campaign } from '../../common/api-types.js';
import { campaignStatus } from './campaignStatus.js';
import { timeAgo } from '../offline/timeAgo.js';
import { formatBytes } from './format.js';

// What a campaign's owner needs to see so recording never stops silently: sessions used
// against the limit, why new visitors are not recorded, and whether the tag sends data at all.

type Usage = Pick<Campaign, 'limit' | 'session_count'>;

/** "3 of 5 sessions", or "3 sessions" when the limit is 0 (no limit). */
export function formatSessionUsage(campaign: Usage): string {
  const count = campaign.session_count ?? 0;
  return campaign.limit === 0 ? `${count} session${count === 1 ? '' : 's'}` : `${count} of ${campaign.limit} sessions`;
}

export const LIMIT_REACHED_NOTICE = 'Session limit reached: new visitors are not recorded. Delete sessions to free places, or raise the limit.';
export const ENDED_NOTICE = 'This campaign has ended: new visitors are not recorded. Change its end date to record again.';
export const NOT_STARTED_NOTICE = 'This campaign has not started yet: visitors are recorded from its start date.';

/** Why the campaign records no new visitor now, or null when it does. */
export function recordingNotice(campaign: Usage & Pick<Campaign, 'start_date_time' | 'end_date_time'>, now = Date.now()): string | null {
  const status = campaignStatus(campaign, now);
  if (status === 'Expired') return ENDED_NOTICE;
  if (status === 'Pending') return NOT_STARTED_NOTICE;
  if (campaign.limit > 0 && (campaign.session_count ?? 0) >= campaign.limit) return LIMIT_REACHED_NOTICE;
  return null;
}

export const NO_DATA_HINT = 'No data received yet — check that the tag is on your site and the domain matches';

/** The "installed?" check: "Last data received 3 minutes ago", or the hint when nothing came yet. */
export function lastDataText(lastDataAt: number | null | undefined, now = Date.now()): string {
  return lastDataAt == null ? NO_DATA_HINT : `Last data received ${timeAgo(lastDataAt, now)}`;
}

/** "1.2 MB of 10 GB stored" (with "— full" at the quota), or null when the server sets no quota. */
export function storageText(storage: Campaign['storage']): string | null {
  if (!storage) return null;
  const text = `${formatBytes(storage.usedBytes)} of ${formatBytes(storage.quotaBytes)} stored`;
  return storage.full ? `${text} — full: new visitors are not recorded` : text;
}
