import { useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { replayErrorMessage, replayQueryOptions } from '../api/replay.js';
import { sessionTypeLabel } from '../api/sessions.js';
import type { ReplayInit } from '../../common/api-types.js';
import { ReplayPlayer } from '../components/ReplayPlayer.js';
import { DetailsList } from '../components/DetailsList.js';

// The replay player is 1024×768 (shrunk to fit narrower screens), speeds 1, 2, 4, 8,
// not auto-playing, created 100 ms after the data is ready.
export const REPLAY_WIDTH = 1024;
export const REPLAY_HEIGHT = 768;
export const REPLAY_SPEEDS = [1, 2, 4, 8];
export const PLAYER_INIT_DELAY_MS = 100;

interface SessionReplayProps {
  campaignId: string;
  sessionId: string;
  /** Extra buttons (e.g. 'Save for offline'). */
  actions?: ReactNode;
}

export function SessionReplay({ campaignId, sessionId, actions }: SessionReplayProps) {
  const replay = useQuery({ ...replayQueryOptions(campaignId, sessionId), enabled: Boolean(campaignId && sessionId) });
  const [playerError, setPlayerError] = useState<string | null>(null);
  const navigate = useNavigate();
  const backToCampaign = () => void navigate({ to: '/campaign/$campaignId', params: { campaignId } });

  const missingIds = !campaignId || !sessionId;
  const error = missingIds ? 'Campaign ID and Session ID are required' : replay.isError ? replayErrorMessage(replay.error) : playerError;

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Session Replay</h1>
          <p className="mono small muted break">Session: {sessionId}</p>
          <p className="mono small muted break">Campaign: {campaignId}</p>
        </div>
        <div className="actions">
          {actions}
          <button type="button" className="button button-secondary" onClick={backToCampaign}>
            Back to Campaign
          </button>
        </div>
      </div>

      {error ? (
        <div className="error-view" role="alert">
          <h2>Error Loading Session</h2>
          <p>{error}</p>
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                setPlayerError(null);
                void replay.refetch();
              }}
            >
              Try Again
            </button>
            <button type="button" className="button button-secondary" onClick={backToCampaign}>
              Go Back
            </button>
          </div>
        </div>
      ) : !replay.data ? (
        <div className="loading-text" role="status">
          <span className="spinner" aria-hidden="true" /> Loading session replay...
        </div>
      ) : (
        <>
          <SessionInfo init={replay.data.init} />
          <section className="card player-card" aria-labelledby="player-title">
            <h2 id="player-title" className="player-title">
              {replay.data.events.length} events recorded
            </h2>
            <ReplayPlayer
              events={replay.data.events}
              width={REPLAY_WIDTH}
              height={REPLAY_HEIGHT}
              speedOption={REPLAY_SPEEDS}
              delayMs={PLAYER_INIT_DELAY_MS}
              onError={(e) => {
                console.error(e);
                setPlayerError('Failed to initialize replay player');
              }}
            />
          </section>
        </>
      )}
    </div>
  );
}

/** Session facts above the player; bot or human is the server's verdict, as in the sessions list. */
export function SessionInfo({ init }: { init: ReplayInit }) {
  const rows: [string, string][] = [
    ['User Agent', init.userAgent ?? 'Unknown'],
    ['IP Address', init.remoteIpAddress ?? 'Unknown'],
    ['Language', init.language ?? 'Unknown'],
    ['Timezone', init.timezone ?? 'Unknown'],
    ['Session Type', sessionTypeLabel(init.isBot)],
    ...(init.isBot && init.botReason ? [['Bot Reason', init.botReason] as [string, string]] : []),
    ['Cookies', init.cookiesEnabled ? 'Enabled' : 'Disabled'],
    ['Focus', init.hasFocus ? 'Active' : 'None'],
    ['Fullscreen', init.fullScreenEnabled ? 'Fullscreen' : 'Windowed'],
  ];
  return (
    <section className="card info-panel" aria-labelledby="info-title">
      <h2 id="info-title">Session Information</h2>
      <DetailsList rows={rows} />
    </section>
  );
}
