import { createFileRoute } from '@tanstack/react-router';
import { replayQueryOptions } from '../../../../../api/replay.js';
import { SessionReplay } from '../../../../../screens/SessionReplay.js';
import { SaveForOfflineButton } from '../../../../../offline/SaveForOfflineButton.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/session/$sessionId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(replayQueryOptions(params.campaignId, params.sessionId));
  },
  component: SessionReplayRoute,
});

function SessionReplayRoute() {
  const { campaignId, sessionId } = Route.useParams();
  // Extra header buttons (e.g. 'Save for offline') go in actions.
  return <SessionReplay campaignId={campaignId} sessionId={sessionId} actions={<SaveForOfflineButton campaignId={campaignId} sessionId={sessionId} />} />;
}
