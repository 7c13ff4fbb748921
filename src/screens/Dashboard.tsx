import { useId, useMemo, useState } from 'react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { campaignsQueryOptions, loaderScriptQueryOptions } from '../api/campaigns.js';
import type { Campaign } from '../../common/api-types.js';
import { campaignStatus, countCampaigns, filterCampaigns, type StatusFilter } from '../lib/campaignStatus.js';
import { formatDuration, formatSessionLimit } from '../lib/format.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { InstallBlock, ScriptActions } from '../components/ScriptActions.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { AlertsBadge } from '../components/AlertsBadge.js';
import { CampaignUsageFacts } from '../components/CampaignUsage.js';
import { RoleNote } from '../components/RoleNote.js';
import { permissionsOf, useCurrentWorkspace } from '../lib/permissions.js';

/** The dashboard: its route's loader has the campaigns in the cache first (offline, the persisted copy). */
export function Dashboard({ workspaceId }: { workspaceId?: string }) {
  const { data } = useSuspenseQuery(campaignsQueryOptions(workspaceId));
  return <DashboardView campaigns={data} workspaceId={workspaceId} />;
}

/** While the route's loader waits for the campaigns: skeleton rows. */
export function DashboardPending() {
  return <DashboardView />;
}

/** The route's errorComponent: the spec's error box, whose Retry loads the campaigns again. */
export function DashboardError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return <DashboardView failed={{ message: (error instanceof Error && error.message) || 'Request failed', onRetry }} />;
}

interface ViewProps {
  /** None while loading. */
  campaigns?: Campaign[];
  failed?: { message: string; onRetry: () => void };
  /** The workspace the URL names (none: the account's only one). */
  workspaceId?: string;
}

function DashboardView({ campaigns, failed, workspaceId }: ViewProps) {
  const { current, count } = useCurrentWorkspace(workspaceId);
  const cantManage = permissionsOf(current).refusal('campaigns.manage');
  const noteId = useId();
  const script = useQuery(loaderScriptQueryOptions());
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [scriptError, setScriptError] = useState<string | null>(null);
  const navigate = useNavigate();
  const notice = useRouterState({ select: (state) => state.location.state.notice });
  const [noticeDismissed, setNoticeDismissed] = useState(false);

  const all = useMemo(() => campaigns ?? [], [campaigns]);
  const counters = useMemo(() => countCampaigns(all), [all]);
  const shown = useMemo(() => filterCampaigns(all, search, status), [all, search, status]);
  const filtering = search.trim() !== '' || status !== 'all';

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Campaign Dashboard</h1>
          {current && count > 1 && <p className="muted">Workspace: {current.name}</p>}
        </div>
        <div className="actions">
          {current && (
            <Link to="/workspaces/$workspaceId/members" params={{ workspaceId: current.id }} className="button button-secondary">
              Members
            </Link>
          )}
          {cantManage ? (
            <button type="button" className="button button-primary" disabled aria-describedby={noteId}>
              Create Campaign
            </button>
          ) : (
            <Link to="/createCampaign" search={workspaceId ? { workspace: workspaceId } : {}} className="button button-primary">
              Create Campaign
            </Link>
          )}
        </div>
      </div>
      <RoleNote id={noteId} reason={cantManage} />

      {notice && !noticeDismissed && (
        <div className="page-notice" role="status">
          <span>{notice}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setNoticeDismissed(true)}>
            ×
          </button>
        </div>
      )}

      <div className="stats" aria-label="Campaign counters">
        <Stat label="Total Campaigns" value={counters.total} />
        <Stat label="Active" value={counters.active} tone="green" />
        <Stat label="Pending" value={counters.pending} tone="amber" />
        <Stat label="Expired" value={counters.expired} tone="grey" />
      </div>

      {failed && (
        <ErrorBox title="Error loading campaigns" message={failed.message}>
          <button type="button" className="button button-secondary" onClick={failed.onRetry}>
            Retry
          </button>
        </ErrorBox>
      )}
      {scriptError && <ErrorBox title={scriptError} />}

      <div className="toolbar">
        <label className="visually-hidden" htmlFor="campaign-search">
          Search campaigns
        </label>
        <input
          id="campaign-search"
          type="search"
          className="input"
          placeholder="Search campaigns..."
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label className="visually-hidden" htmlFor="campaign-status">
          Status
        </label>
        <select id="campaign-status" className="input" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
          <option value="all">All Status</option>
          <option value="Active">Active</option>
          <option value="Pending">Pending</option>
          <option value="Expired">Expired</option>
        </select>
      </div>
      <p className="muted count-line">
        {shown.length} of {all.length} campaigns
      </p>

      {!campaigns && !failed ? (
        <div className="campaign-list" aria-busy="true" aria-label="Loading campaigns">
          {[0, 1, 2].map((i) => (
            <div key={i} className="card campaign-row skeleton" data-testid="skeleton-row">
              <span className="skeleton-line wide" />
              <span className="skeleton-line" />
              <span className="skeleton-line" />
            </div>
          ))}
        </div>
      ) : all.length === 0 && !failed ? (
        <div className="empty-state">
          <h2>No campaigns yet</h2>
          <p className="muted">Create a campaign to get your tracking script and start recording sessions.</p>
          <button
            type="button"
            className="button button-primary"
            disabled={Boolean(cantManage)}
            aria-describedby={cantManage ? noteId : undefined}
            onClick={() => void navigate({ to: '/createCampaign', search: workspaceId ? { workspace: workspaceId } : {} })}
          >
            Create Your First Campaign
          </button>
        </div>
      ) : shown.length === 0 && filtering ? (
        <div className="empty-state">
          <h2>No matching campaigns</h2>
          <p className="muted">Try another search or status.</p>
        </div>
      ) : (
        <ul className="campaign-list">
          {shown.map((campaign) => (
            <CampaignRow
              key={campaign.id}
              campaign={campaign}
              scriptSource={script.data}
              onScriptError={setScriptError}
              editRefused={cantManage ? noteId : undefined}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function Stat({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className={`card stat${tone ? ` stat-${tone}` : ''}`}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
    </div>
  );
}

function CampaignRow({
  campaign,
  scriptSource,
  onScriptError,
  editRefused,
}: {
  campaign: Campaign;
  scriptSource: string | undefined;
  onScriptError: (m: string | null) => void;
  /** The id of the reason the role cannot edit, when it cannot. */
  editRefused?: string;
}) {
  const status = campaignStatus(campaign);
  return (
    <li className="card campaign-row" data-testid="campaign-row">
      <div className="campaign-main">
        <div className="campaign-title">
          <h2>{campaign.name}</h2>
          <StatusBadge status={status} />
          <AlertsBadge campaignId={campaign.id} />
        </div>
        <dl className="campaign-facts">
          <div>
            <dt>Duration</dt>
            <dd>{formatDuration(campaign.start_date_time, campaign.end_date_time)}</dd>
          </div>
          <div>
            <dt>Session Limit</dt>
            <dd>{formatSessionLimit(campaign.limit)}</dd>
          </div>
          <CampaignUsageFacts campaign={campaign} />
          <div className="domains-fact">
            <dt>Domains</dt>
            <dd className="truncate" title={campaign.domains}>
              {campaign.domains}
            </dd>
          </div>
        </dl>
        <InstallBlock campaignId={campaign.id} installed={campaign.last_data_at != null} onError={onScriptError} />
      </div>
      <div className="row-actions">
        <ScriptActions campaignId={campaign.id} source={scriptSource} onError={onScriptError} />
        {editRefused ? (
          <button type="button" className="button button-secondary button-small" aria-label={`Edit ${campaign.name}`} disabled aria-describedby={editRefused}>
            Edit
          </button>
        ) : (
          <Link
            to="/campaign/$campaignId/edit"
            params={{ campaignId: campaign.id }}
            className="button button-secondary button-small"
            aria-label={`Edit ${campaign.name}`}
          >
            Edit
          </Link>
        )}
        <Link to="/campaign/$campaignId" params={{ campaignId: campaign.id }} className="button button-primary button-small">
          View Recordings
        </Link>
      </div>
    </li>
  );
}
