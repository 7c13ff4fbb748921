import { createFileRoute } from '@tanstack/react-router';
import { replayQueryOptions } from '../../../../../api/replay.js';
import { SessionReplay } from '../../../../../screens/SessionReplay.js';
import { SaveForOfflineButton } from '../../../../../offline/SaveForOfflineButton.js';
import { warmPlayer } from '../../../../../components/player/loadPlayer.js';
import { momentParam } from '../../../../../components/replay/moment.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/session/$sessionId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(replayQueryOptions(params.campaignId, params.sessionId));
    // The player's code loads while the events download, not after them.
    warmPlayer();
  },
  // ?t=<seconds>: the moment a shared link points at.
  validateSearch: (search: Record<string, unknown>): { t?: number } => {
    const t = momentParam(search.t);
    return t === undefined ? {} : { t };
  },
  component: SessionReplayRoute,
});

function SessionReplayRoute() {
  const { campaignId, sessionId } = Route.useParams();
  const { t } = Route.useSearch();
  // Extra header buttons (e.g. 'Save for offline') go in actions.
  return (
    <SessionReplay
      campaignId={campaignId}
      sessionId={sessionId}
      startAtSeconds={t}
      actions={<SaveForOfflineButton campaignId={campaignId} sessionId={sessionId} />}
    />
  );
}
