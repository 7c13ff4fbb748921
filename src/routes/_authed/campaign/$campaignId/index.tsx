import { createFileRoute } from '@tanstack/react-router';
import { sessionsQueryOptions } from '../../../../api/sessions.js';
import { CampaignSessions } from '../../../../screens/CampaignSessions.js';
import { SaveForOfflineButton } from '../../../../offline/SaveForOfflineButton.js';
import { validateSessionFilters, type SessionFilters } from '../../../../lib/sessionFilters.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/')({
  // The list's filters and sort live in the URL: a filtered list can be bookmarked and shared.
  validateSearch: (search: Record<string, unknown>): SessionFilters => validateSessionFilters(search),
  loaderDeps: ({ search }) => ({ filters: search }),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(sessionsQueryOptions(params.campaignId, { search: '', type: 'all', filters: deps.filters }));
  },
  component: CampaignSessionsRoute,
});

function CampaignSessionsRoute() {
  const { campaignId } = Route.useParams();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  // Extra per-card buttons (e.g. 'Save for offline') go in sessionActions.
  return (
    <CampaignSessions
      campaignId={campaignId}
      filters={filters}
      onFilters={(next) => void navigate({ search: next, replace: true })}
      sessionActions={(session) => <SaveForOfflineButton campaignId={campaignId} sessionId={session.sessionId} />}
    />
  );
}
