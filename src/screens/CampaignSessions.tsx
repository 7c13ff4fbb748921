import { campaignDataChanged } from '../api/campaignData.js';
import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { campaignKeys, campaignsQueryOptions, deleteCampaign, deleteErrorMessage } from '../api/campaigns.js';
import { deleteSession, deleteSessionErrorMessage, sessionKeys, sessionsErrorMessage, sessionsQueryOptions, type SessionTypeFilter } from '../api/sessions.js';
import type { Session } from '../../common/api-types.js';
import { CAMPAIGN_DELETED } from '../lib/pageNotice.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { CampaignNotFound, isUnknownCampaign } from '../components/CampaignNotFound.js';
import { SessionCard } from '../components/SessionCard.js';
import { SessionRow, SessionTable } from '../components/SessionTable.js';
import { ActiveFilters } from '../components/ActiveFilters.js';
import { SessionsViewToggle, useSessionsView, type SessionsView } from '../components/SessionsView.js';
import { DeleteCampaignModal, DeleteSessionModal, SessionDetailsModal } from '../components/SessionModals.js';
import { FiltersButton, SessionFilterBar, useTypedText } from '../components/SessionFilterBar.js';
import { SegmentPicker } from '../components/SegmentPicker.js';
import { hasFilters } from '../lib/sessionFilters.js';
import { DEFAULT_SORT } from '../../common/session-list.js';
import { listContext, listFilters, listQuery, SESSION_LIST_DEFAULTS, type SessionListSearch } from '../lib/sessionListContext.js';
import { Spinner } from '../components/Spinner.js';
import { useCampaignName } from '../offline/useCampaignName.js';
import { useWhenBackOnline } from '../offline/useOnline.js';
import { OFFLINE_WRITE_MESSAGE } from '../offline/network.js';
import { useLiveSessions } from '../lib/useLiveSessions.js';
import { LiveBadge } from '../components/LiveBadge.js';
import { StorageQuotaNotice } from '../components/StorageQuotaNotice.js';
import { CampaignTabs } from '../components/CampaignTabs.js';
import { CampaignUsage } from '../components/CampaignUsage.js';
import { LoadMore } from '../components/LoadMore.js';
import { RoleNote } from '../components/RoleNote.js';
import { useCampaignPermissions } from '../lib/permissions.js';

interface CampaignSessionsProps {
  campaignId: string;
  /** Extra buttons per session card (e.g. 'Save for offline'). */
  sessionActions?: (session: Session) => ReactNode;
  /** Search, type, filters and sort, kept in the page's URL by the route. */
  list?: SessionListSearch;
  onList?: (list: SessionListSearch) => void;
}

/** The search box goes to the URL once typing pauses this long. */
const SEARCH_TYPING_PAUSE_MS = 300;

export function CampaignSessions({ campaignId, sessionActions, list: listSearch = SESSION_LIST_DEFAULTS, onList }: CampaignSessionsProps) {
  const { q, type } = listSearch;
  const filters = listFilters(listSearch);
  const onFilters = onList && ((next: typeof filters) => onList({ ...next, q, type, sort: next.sort ?? DEFAULT_SORT }));
  const search = useTypedText(q, (text) => onList?.({ ...listSearch, q: text }), SEARCH_TYPING_PAUSE_MS);
  const query = listQuery(listSearch);
  // The previous list stays on screen while a new search or filter loads.
  const sessions = useInfiniteQuery({ ...sessionsQueryOptions(campaignId, query), enabled: Boolean(campaignId), placeholderData: keepPreviousData });
  const [details, setDetails] = useState<Session | null>(null);
  const [view, setView] = useSessionsView();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { refusal } = useCampaignPermissions(campaignId);
  const cantManage = refusal('campaigns.manage');
  const erases = !refusal('data.erase');
  const noteId = useId();
  const campaignName = useCampaignName(campaignId);
  const { data: retentionDays } = useQuery({
    ...campaignsQueryOptions(),
    enabled: Boolean(campaignId),
    select: (campaigns) => campaigns.find((campaign) => campaign.id === campaignId)?.retention_days,
  });
  useWhenBackOnline(deleteError === OFFLINE_WRITE_MESSAGE, () => setDeleteError(null));
  // New sessions and changes arrive by themselves while the page is open (no Refresh needed).
  const live = useLiveSessions(campaignId, sessions.isSuccess);

  const [toDelete, setToDelete] = useState<Session | null>(null);
  const removeSession = useMutation({
    mutationFn: (session: Session) => deleteSession(campaignId, session.sessionId),
    onSuccess: async () => {
      setToDelete(null);
      // A deleted session frees its place under the limit: the campaign's numbers change too.
      await campaignDataChanged(queryClient, campaignId);
    },
    onError: (error) => {
      setToDelete(null);
      setDeleteError(deleteSessionErrorMessage(error));
    },
  });

  const remove = useMutation({
    mutationFn: () => deleteCampaign(campaignId),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: sessionKeys.campaign(campaignId) });
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
      await navigate({ to: '/dashboard', state: { notice: CAMPAIGN_DELETED } });
    },
    onError: (error) => {
      setConfirmDelete(false);
      setDeleteError(deleteErrorMessage(error));
    },
  });

  const pages = sessions.data?.pages ?? [];
  const counts = pages[0]?.counts ?? { total: 0, human: 0, bot: 0 };
  const list = sessions.isError ? [] : pages.flatMap((page) => page.sessions);
  // A narrowed list says how many it matches of the campaign's (the server counts them; a page saved by an older build, what it holds).
  const narrowed = Boolean(q) || type !== 'all' || hasFilters(listFilters({ ...listSearch, sort: DEFAULT_SORT }));
  if (sessions.isError && isUnknownCampaign(sessions.error)) return <CampaignNotFound campaignId={campaignId} />;

  return (
    <div className="page sessions-page">
      <div className="page-header">
        <div>
          <div className="title-with-badge">
            <h1>Campaign Sessions</h1>
            {live && <LiveBadge title="New sessions and changes appear as they happen" />}
          </div>
          {campaignName && <p className="campaign-name">{campaignName}</p>}
          <p className="mono small muted break">Campaign ID: {campaignId}</p>
          {retentionDays !== undefined && (
            <p className="small muted">{retentionDays === 0 ? 'Recordings are kept forever' : `Recordings are kept for ${retentionDays} days`}</p>
          )}
        </div>
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            disabled={Boolean(cantManage)}
            aria-describedby={cantManage ? noteId : undefined}
            onClick={() => void navigate({ to: '/campaign/$campaignId/edit', params: { campaignId }, search: { from: 'sessions' } })}
          >
            Edit Campaign
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={Boolean(cantManage)}
            aria-describedby={cantManage ? noteId : undefined}
            onClick={() => setConfirmDelete(true)}
          >
            Delete Campaign
          </button>
          <button type="button" className="button button-secondary" onClick={() => void navigate({ to: '/dashboard' })}>
            Back to Dashboard
          </button>
        </div>
      </div>

      <RoleNote id={noteId} reason={cantManage} />
      <CampaignTabs campaignId={campaignId} current="sessions" />
      {campaignId && <CampaignUsage campaignId={campaignId} sessionsChangedAt={sessions.dataUpdatedAt} />}
      {!campaignId && <ErrorBox title="Campaign ID is required" />}
      {deleteError && <ErrorBox title={deleteError} />}
      <StorageQuotaNotice storage={pages[0]?.storage} />

      <div className="stats stats-3" aria-label="Session counters">
        <div className="card stat">
          <span className="stat-label">Total Sessions</span>
          <span className="stat-value">{counts.total}</span>
        </div>
        <div className="card stat stat-green">
          <span className="stat-label">Human Users</span>
          <span className="stat-value">{counts.human}</span>
        </div>
        <div className="card stat stat-amber">
          <span className="stat-label">Bot Traffic</span>
          <span className="stat-value">{counts.bot}</span>
        </div>
      </div>

      <div className="toolbar">
        <label className="visually-hidden" htmlFor="session-search">
          Search sessions
        </label>
        <input
          id="session-search"
          type="search"
          className="input"
          placeholder="Search by session ID, IP address, or language..."
          value={search.text}
          onChange={(e) => search.setText(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && search.apply()}
        />
        <label className="visually-hidden" htmlFor="session-type">
          Session type
        </label>
        <select id="session-type" className="input" value={type} onChange={(e) => onList?.({ ...listSearch, type: e.target.value as SessionTypeFilter })}>
          <option value="all">All Sessions</option>
          <option value="human">Human Users Only</option>
          <option value="bot">Bot Traffic Only</option>
        </select>
        <button type="button" className="button button-secondary" onClick={() => void sessions.refetch()} disabled={sessions.isFetching}>
          Refresh
        </button>
        {onFilters && <FiltersButton filters={filters} open={filtersOpen} onOpen={setFiltersOpen} />}
        <SessionsViewToggle view={view} onView={setView} />
      </div>
      {onFilters && (
        <div id="session-filters" className="card filters-panel" hidden={!filtersOpen}>
          <SegmentPicker campaignId={campaignId} filters={filters} onFilters={onFilters} />
          <SessionFilterBar filters={filters} onChange={onFilters} />
        </div>
      )}
      {onFilters && sessions.isSuccess && (
        <ActiveFilters
          campaignId={campaignId}
          filters={filters}
          onFilters={onFilters}
          total={counts.total}
          matched={narrowed ? (pages[0]?.matched ?? list.length) : undefined}
        />
      )}
      {filters.user && (
        <p className="small">
          <Link to="/campaign/$campaignId/person/$userId" params={{ campaignId, userId: filters.user }}>
            This person: their data and erasure
          </Link>
        </p>
      )}

      {sessions.isError && <ErrorBox title="Error loading sessions" message={sessionsErrorMessage(sessions.error)} />}

      {sessions.isPending && campaignId ? (
        <Spinner label="Loading sessions..." />
      ) : list.length === 0 && !sessions.isError ? (
        <div className="empty-state">
          <h2>No sessions found</h2>
          <p className="muted">
            {narrowed ? 'Try another search or filter.' : 'Install the campaign script on your site; sessions appear here as visitors arrive.'}
          </p>
        </div>
      ) : (
        <>
          <SessionItems view={view}>
            {list.map((session) => {
              const Item = view === 'list' ? SessionRow : SessionCard;
              return (
                <Item
                  key={session.sessionId}
                  campaignId={campaignId}
                  session={session}
                  onDetails={setDetails}
                  onDelete={erases ? setToDelete : undefined}
                  actions={sessionActions?.(session)}
                  list={listContext(filters, q, type)}
                />
              );
            })}
          </SessionItems>
          {sessions.hasNextPage && <LoadMore loading={sessions.isFetchingNextPage} onLoad={() => void sessions.fetchNextPage()} />}
        </>
      )}

      {details && <SessionDetailsModal session={details} onClose={() => setDetails(null)} />}
      {toDelete && (
        <DeleteSessionModal
          sessionId={toDelete.sessionId}
          deleting={removeSession.isPending}
          onCancel={() => setToDelete(null)}
          onConfirm={() => {
            setDeleteError(null);
            removeSession.mutate(toDelete);
          }}
        />
      )}
      {confirmDelete && (
        <DeleteCampaignModal
          sessionCount={counts.total}
          deleting={remove.isPending}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setDeleteError(null);
            remove.mutate();
          }}
        />
      )}
    </div>
  );
}

/** The sessions as cards (a list) or as the list view's table. */
function SessionItems({ view, children }: { view: SessionsView; children: ReactNode }) {
  return view === 'list' ? <SessionTable>{children}</SessionTable> : <ul className="session-grid">{children}</ul>;
}
