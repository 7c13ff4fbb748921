import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SharedReplay as SharedReplayData } from '../../../common/api/shares.js';
import { RecordingPlayer } from '../ReplayPlayer.js';
import { SessionInfo } from '../SessionInfo.js';
import { REPLAY_HEIGHT, REPLAY_SPEEDS, REPLAY_WIDTH } from './replaySettings.js';

export const LINK_GONE_TITLE = 'This link no longer works';

/** A link that answers 404 expired, was revoked, or never existed: the page says so. */
class LinkGoneError extends Error {}

async function fetchShared(token: string): Promise<SharedReplayData> {
  // No cookies: a shared replay is for anyone holding the link, signed in or not.
  const response = await fetch(`/api/v1/shared/${encodeURIComponent(token)}`, { credentials: 'omit' });
  if (response.status === 404) throw new LinkGoneError(LINK_GONE_TITLE);
  if (!response.ok) throw new Error(`Failed to load the shared replay (${response.status})`);
  return (await response.json()) as SharedReplayData;
}

/** Search engines must not list a shared replay, whatever headers reached the page. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/** One shared replay, read-only: the player, and the session's details when the owner chose to include them. */
export function SharedReplay({ token, startAtSeconds }: { token: string; startAtSeconds?: number }) {
  useNoIndex();
  const replay = useQuery({ queryKey: ['shared', token], queryFn: () => fetchShared(token), retry: false, gcTime: 60_000 });
  if (replay.error) {
    const gone = replay.error instanceof LinkGoneError;
    return (
      <div className="page shared-page">
        <div className="error-view" role="alert">
          <h1>{gone ? LINK_GONE_TITLE : 'Error Loading Session'}</h1>
          <p>{gone ? 'It has expired or its owner revoked it. Ask them for a new link.' : replay.error.message}</p>
        </div>
      </div>
    );
  }
  if (!replay.data) {
    return (
      <div className="loading-text" role="status">
        <span className="spinner" aria-hidden="true" /> Loading session replay...
      </div>
    );
  }
  const { events, details, expiresAt } = replay.data;
  return (
    <div className="page replay-page shared-page">
      <h1>Shared Session Replay</h1>
      <p className="muted small">Read-only link, until {new Date(expiresAt).toLocaleString()}</p>
      <section className="card player-card" aria-labelledby="player-title">
        <h2 id="player-title" className="player-title">
          {events.length} events recorded
        </h2>
        <RecordingPlayer
          events={events}
          width={REPLAY_WIDTH}
          height={REPLAY_HEIGHT}
          speedOption={REPLAY_SPEEDS}
          fitToViewport
          startAtMs={startAtSeconds === undefined ? undefined : startAtSeconds * 1000}
        />
      </section>
      {details && <SessionInfo init={details} />}
    </div>
  );
}
