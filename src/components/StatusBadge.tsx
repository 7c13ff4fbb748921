import type { CampaignStatus } from '../lib/campaignStatus.js';

/** Green Active, amber Pending, grey Expired. */
export function StatusBadge({ status }: { status: CampaignStatus }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}
