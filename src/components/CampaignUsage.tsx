import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Campaign } from '../../common/api-types.js';
import { campaignsQueryOptions } from '../api/campaigns.js';
import { formatSessionUsage, lastDataText, recordingNotice, storageText } from '../lib/campaignUsage.js';

/** The clock, read again every 30 s so "3 minutes ago" and the campaign's status stay true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The dashboard row's use line and "installed?" check. */
export function CampaignUsageFacts({ campaign }: { campaign: Campaign }) {
  const now = useNow();
  const storage = storageText(campaign.storage);
  return (
    <>
      <div>
        <dt>Sessions</dt>
        <dd data-testid="campaign-usage">{formatSessionUsage(campaign)}</dd>
      </div>
      <div>
        <dt>Last data</dt>
        <dd className={campaign.last_data_at == null ? 'usage-hint' : undefined} data-testid="campaign-last-data">
          {lastDataText(campaign.last_data_at, now)}
        </dd>
      </div>
      {storage && (
        <div>
          <dt>Storage</dt>
          <dd data-testid="campaign-storage" className={campaign.storage?.full ? 'usage-hint' : undefined}>
            {storage}
          </dd>
        </div>
      )}
    </>
  );
}

/** How old the campaign's numbers may be when the sessions list changes before they are asked for again. */
const USAGE_FRESH_MS = 5_000;

/**
 * The sessions page's view of the campaign's use: "N of L sessions", when it last received data,
 * and a notice when new visitors are not recorded (limit reached, ended, not started).
 * `sessionsChangedAt`: when the sessions list last changed (a new or deleted session), so the
 * numbers follow it.
 */
export function CampaignUsage({ campaignId, sessionsChangedAt }: { campaignId: string; sessionsChangedAt: number }) {
  const now = useNow();
  const query = useQuery({ ...campaignsQueryOptions(), enabled: Boolean(campaignId), select: (all) => all.find((c) => c.id === campaignId) });
  const { refetch, dataUpdatedAt } = query;
  useEffect(() => {
    if (sessionsChangedAt > dataUpdatedAt + USAGE_FRESH_MS) void refetch();
  }, [sessionsChangedAt, dataUpdatedAt, refetch]);
  const campaign = query.data;
  if (!campaign) return null;
  const notice = recordingNotice(campaign, now);
  return (
    <div className="campaign-usage">
      {notice && (
        <p className="usage-notice" role="status">
          {notice}
        </p>
      )}
      <p className="small">
        <strong data-testid="campaign-usage">{formatSessionUsage(campaign)}</strong>
        {' · '}
        <span className={campaign.last_data_at == null ? 'usage-hint' : 'muted'} data-testid="campaign-last-data">
          {lastDataText(campaign.last_data_at, now)}
        </span>
      </p>
    </div>
  );
}
