import { createFileRoute, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { sessionsQueryOptions } from '../../../../api/sessions.js';
import { CampaignSessions } from '../../../../screens/CampaignSessions.js';
import { SaveForOfflineButton } from '../../../../offline/SaveForOfflineButton.js';
import { Spinner } from '../../../../components/Spinner.js';
import { loadOnEnter } from '../../../../lib/routeLoad.js';
import { listQuery, SESSION_LIST_DEFAULTS, validateSessionListSearch, type SessionListSearch } from '../../../../lib/sessionListContext.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/')({
  // The list's search, type, filters and sort live in the URL: a filtered list can be bookmarked and shared.
  validateSearch: (search: Partial<SessionListSearch> & SearchSchemaInput) => validateSessionListSearch(search),
  search: { middlewares: [stripSearchParams(SESSION_LIST_DEFAULTS)] },
  loaderDeps: ({ search }) => listQuery(search),
  // Entering the page the list is in the cache first; a new search or filter loads behind the list on screen.
  loader: ({ context, params, deps, cause }) => loadOnEnter(cause, context.queryClient.ensureInfiniteQueryData(sessionsQueryOptions(params.campaignId, deps))),
  pendingComponent: () => <Spinner label="Loading sessions..." />,
  pendingMs: 0,
  pendingMinMs: 0,
  component: CampaignSessionsRoute,
});

function CampaignSessionsRoute() {
  const { campaignId } = Route.useParams();
  const list = Route.useSearch();
  const navigate = Route.useNavigate();
  // Extra per-card buttons (e.g. 'Save for offline') go in sessionActions.
  return (
    <CampaignSessions
      campaignId={campaignId}
      list={list}
      onList={(next) => void navigate({ search: next, replace: true })}
      sessionActions={(session) => <SaveForOfflineButton campaignId={campaignId} sessionId={session.sessionId} />}
    />
  );
}
