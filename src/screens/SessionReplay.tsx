import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { replayErrorMessage, replayQueryOptions, watchEarlyReplay, type EarlyReplay } from '../api/replay.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { needsRealDomSeek, ReplayPlayer } from '../components/ReplayPlayer.js';
import { DeleteSessionButton } from '../components/replay/DeleteSessionButton.js';
import { ActivityMarkers, ActivityPanel, useActivityItems } from '../components/replay/ActivityTimeline.js';
import { SessionInfo } from '../components/SessionInfo.js';
import { ReplayActions } from '../components/replay/ReplayActions.js';
import { ReplayStar } from '../components/StarButton.js';
import { NotesPanel, useNotes } from '../components/replay/Notes.js';
import { REPLAY_HEIGHT, REPLAY_SPEEDS, REPLAY_WIDTH } from '../components/replay/replaySettings.js';
import { useOnline } from '../offline/useOnline.js';
import { useSavedReplay } from '../offline/useSavedReplays.js';
import { useCampaignName } from '../offline/useCampaignName.js';
import { isReplayNotSavedOffline, replayPageMessage } from '../offline/offlineReplay.js';
import { countAssetsNotKept, MISSING_ASSETS_MESSAGE } from '../offline/localAssets.js';
import { API_PATHS } from '../api/paths.js';
import { createLiveFeed, NOT_LIVE_OFFLINE } from '../lib/liveFeed.js';
import { useLiveStream } from '../lib/useLiveStream.js';
import { LiveBadge } from '../components/LiveBadge.js';

// The replay first: a compact title, the player (recording and controls within the screen),
// then the session's facts. Size and speeds as every replay (replaySettings), not auto-playing,
// created 100 ms after the data is ready.
export const PLAYER_INIT_DELAY_MS = 100;
const RECONNECT_RETRIES = 5;
const NO_EVENTS: ReplayEvent[] = [];
const RECONNECT_RETRY_MS = 1000;

interface SessionReplayProps {
  campaignId: string;
  sessionId: string;
  /** Extra buttons (e.g. 'Save for offline'). */
  actions?: ReactNode;
  /** Open the recording at this second (a link to a moment). */
  startAtSeconds?: number;
}

export function SessionReplay({ campaignId, sessionId, actions, startAtSeconds }: SessionReplayProps) {
  const replay = useQuery({ ...replayQueryOptions(campaignId, sessionId), enabled: Boolean(campaignId && sessionId) });
  const [playerError, setPlayerError] = useState<string | null>(null);
  const saved = useSavedReplay(campaignId, sessionId);
  const campaignName = useCampaignName(campaignId, saved);
  const navigate = useNavigate();
  const backToCampaign = () => void navigate({ to: '/campaign/$campaignId', params: { campaignId } });

  // Not on the device while offline: try again by itself once the network is back (a few
  // times: the first try may leave while the connection is still coming up).
  const online = useOnline();
  const notSavedOffline = replay.isError && isReplayNotSavedOffline(replay.error);
  const retries = useRef(0);
  const { refetch, errorUpdatedAt } = replay;
  useEffect(() => {
    if (!online) retries.current = 0;
    if (!online || !notSavedOffline || retries.current >= RECONNECT_RETRIES) return;
    const timer = window.setTimeout(() => void refetch(), retries.current * RECONNECT_RETRY_MS);
    retries.current += 1;
    return () => window.clearTimeout(timer);
    // errorUpdatedAt: each failed try schedules the next one.
  }, [online, notSavedOffline, errorUpdatedAt, refetch]);

  // A replay downloading now starts playing on its first page; the rest joins the player as it comes.
  const early = useEarlyReplay(campaignId, sessionId, startAtSeconds === undefined);
  const events = replay.data?.events ?? early?.events ?? NO_EVENTS;
  const notes = useNotes(campaignId, sessionId);
  const activity = useActivityItems(events, notes);
  // The player keeps the events it started on (a new array would start it again), unless the
  // whole recording turns out to need the real-DOM seek its first page did not show.
  const playerEvents =
    early && !(replay.data && needsRealDomSeek(replay.data.events) && !needsRealDomSeek(early.events)) ? early.events : replay.data?.events;
  const shown = replay.data ?? (early ? { init: early.init } : undefined);

  // A session still recording is followed live: the stream starts at the session's start and the
  // feed passes over the events the page loaded already. Its end ('ended') makes it a plain replay.
  const [endedLive, setEndedLive] = useState<ReplayEvent[] | null>(null);
  const inProgress = replay.data?.complete === false && endedLive !== replay.data.events;
  const feed = useMemo(() => (replay.data && !replay.data.complete ? createLiveFeed(replay.data.events.length) : null), [replay.data]);
  const liveConnected = useLiveStream({
    path: API_PATHS.liveReplay(campaignId, sessionId),
    enabled: Boolean(inProgress && feed),
    on: {
      events: (data) => {
        try {
          feed?.push(JSON.parse(data) as ReplayEvent[]);
        } catch {
          // not a batch of events: ignored
        }
      },
      ended: () => setEndedLive(replay.data?.events ?? null),
    },
  });

  const missingIds = !campaignId || !sessionId;
  const error = missingIds ? 'Campaign ID and Session ID are required' : replay.isError ? replayPageMessage(replay.error, replayErrorMessage) : playerError;

  return (
    <div className="page replay-page">
      <div className="replay-header">
        <div className="replay-title-row">
          <h1>Session Replay</h1>
          <button type="button" className="button button-secondary" onClick={backToCampaign}>
            Back to Campaign
          </button>
        </div>
        <div className="replay-subtitle">
          <p className="replay-ids">
            {campaignName && <span className="replay-campaign-name">{campaignName}</span>}
            <span className="mono small muted" title={sessionId}>
              Session: {sessionId}
            </span>
            <span className="mono small muted" title={campaignId}>
              Campaign: {campaignId}
            </span>
          </p>
          <div className="replay-actions">
            {actions}
            {!missingIds && <ReplayStar campaignId={campaignId} sessionId={sessionId} />}
            <ReplayActions campaignId={campaignId} sessionId={sessionId} />
            {!missingIds && <DeleteSessionButton campaignId={campaignId} sessionId={sessionId} />}
          </div>
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
      ) : !shown || !playerEvents ? (
        <div className="loading-text" role="status">
          <span className="spinner" aria-hidden="true" /> Loading session replay...
        </div>
      ) : (
        <>
          <section className="card player-card player-card-activity" aria-labelledby="player-title">
            <div className="title-with-badge">
              <h2 id="player-title" className="player-title">
                {events.length} events recorded
              </h2>
              {inProgress && liveConnected && <LiveBadge title="Following the session as it happens" />}
            </div>
            {inProgress && !online && (
              <p className="player-note" role="note" data-testid="not-live-offline">
                {NOT_LIVE_OFFLINE}
              </p>
            )}
            <ReplayPlayer
              events={playerEvents}
              live={inProgress && online && feed ? feed : undefined}
              more={playerEvents === early?.events ? early.more : undefined}
              underControls={(view) => <ActivityMarkers items={activity} totalTime={view.totalTime} onSeek={view.seek} />}
              afterPlayer={(view) => (
                <ActivityPanel
                  events={events}
                  items={activity}
                  currentTime={view.currentTime}
                  onSeek={view.seek}
                  notes={<NotesPanel campaignId={campaignId} sessionId={sessionId} notes={notes} events={events} currentTime={view.currentTime} onSeek={view.seek} />}
                />
              )}
              width={REPLAY_WIDTH}
              height={REPLAY_HEIGHT}
              speedOption={REPLAY_SPEEDS}
              delayMs={PLAYER_INIT_DELAY_MS}
              fitToViewport
              shortcuts
              startAtMs={startAtSeconds === undefined ? undefined : startAtSeconds * 1000}
              onError={(e) => {
                console.error(e);
                setPlayerError('Failed to initialize replay player');
              }}
            />
            {replay.data && <MissingAssetsNote events={replay.data.events} />}
          </section>
          <SessionInfo init={shown.init} />
        </>
      )}
    </div>
  );
}

/** Offline, one line under the player when files the recording shows could not be kept. */
function MissingAssetsNote({ events }: { events: ReplayEvent[] }) {
  const online = useOnline();
  const [missing, setMissing] = useState(0);
  useEffect(() => {
    if (online) return;
    let live = true;
    void countAssetsNotKept(events)
      .then((count) => live && setMissing(count))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [events, online]);
  if (online || missing === 0) return null;
  return (
    <p className="player-note" role="note" data-testid="missing-assets">
      {MISSING_ASSETS_MESSAGE}
    </p>
  );
}

/** The early replay of this page's download, if one is under way (not used when `wanted` is false). */
function useEarlyReplay(campaignId: string, sessionId: string, wanted: boolean): EarlyReplay | null {
  const [early, setEarly] = useState<{ key: string; replay: EarlyReplay } | null>(null);
  const key = `${campaignId}/${sessionId}`;
  useEffect(() => {
    if (!wanted) return;
    return watchEarlyReplay(campaignId, sessionId, (replay) => setEarly({ key: `${campaignId}/${sessionId}`, replay }));
  }, [campaignId, sessionId, wanted]);
  return wanted && early?.key === key ? early.replay : null;
}
