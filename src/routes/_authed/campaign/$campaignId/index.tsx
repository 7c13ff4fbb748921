import { createFileRoute, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { sessionsQueryOptions } from '../../../../api/sessions.js';
import { CampaignSessions } from '../../../../screens/CampaignSessions.js';
import { SaveForOfflineButton } from '../../../../offline/SaveForOfflineButton.js';
import { listFilters, SESSION_LIST_DEFAULTS, validateSessionListSearch, type SessionListSearch } from '../../../../lib/sessionListContext.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/')({
  // The list's search, type, filters and sort live in the URL: a filtered list can be bookmarked and shared.
  validateSearch: (search: Partial<SessionListSearch> & SearchSchemaInput) => validateSessionListSearch(search),
  search: { middlewares: [stripSearchParams(SESSION_LIST_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ search: search.q, type: search.type, filters: listFilters(search) }),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(sessionsQueryOptions(params.campaignId, deps));
  },
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
