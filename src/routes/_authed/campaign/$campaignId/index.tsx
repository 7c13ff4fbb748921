import { createFileRoute } from '@tanstack/react-router';
import { sessionsQueryOptions } from '../../../../api/sessions.js';
import { CampaignSessions } from '../../../../screens/CampaignSessions.js';
import { SaveForOfflineButton } from '../../../../offline/SaveForOfflineButton.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchInfiniteQuery(sessionsQueryOptions(params.campaignId, { search: '', type: 'all' }));
  },
  component: CampaignSessionsRoute,
});

function CampaignSessionsRoute() {
  const { campaignId } = Route.useParams();
  // Extra per-card buttons (e.g. 'Save for offline') go in sessionActions.
  return (
    <CampaignSessions
      campaignId={campaignId}
      sessionActions={(session) => <SaveForOfflineButton campaignId={campaignId} sessionId={session.sessionId} />}
    />
  );
}
