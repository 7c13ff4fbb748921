import { createFileRoute, useRouterState } from '@tanstack/react-router';
import { replayQueryOptions } from '../../../../../api/replay.js';
import { SessionReplay } from '../../../../../screens/SessionReplay.js';
import { SaveForOfflineButton } from '../../../../../offline/SaveForOfflineButton.js';
import { warmPlayer } from '../../../../../components/player/loadPlayer.js';
import { validateReplaySearch } from '../../../../../lib/sessionListContext.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/session/$sessionId')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(replayQueryOptions(params.campaignId, params.sessionId));
    // The player's code loads while the events download, not after them.
    warmPlayer();
  },
  // ?t=<seconds>: the moment a shared link points at; the rest, the sessions list it was opened
  // from (its filters, sort, search and type), which Previous and Next session follow.
  validateSearch: validateReplaySearch,
  component: SessionReplayRoute,
});

function SessionReplayRoute() {
  const { campaignId, sessionId } = Route.useParams();
  const { t, ...list } = Route.useSearch();
  const autoPlay = useRouterState({ select: (state) => state.location.state.autoplay === true });
  // Extra header buttons (e.g. 'Save for offline') go in actions.
  return (
    <SessionReplay
      campaignId={campaignId}
      sessionId={sessionId}
      startAtSeconds={t}
      list={list}
      autoPlay={autoPlay}
      actions={<SaveForOfflineButton campaignId={campaignId} sessionId={sessionId} />}
    />
  );
}
