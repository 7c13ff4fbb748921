import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { replayErrorMessage, replayQueryOptions } from '../api/replay.js';
import { useReplaySource } from '../replay/replaySource.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { ReplayPlayer } from '../components/ReplayPlayer.js';
import { DeleteSessionButton } from '../components/replay/DeleteSessionButton.js';
import { ActivityMarkers, ActivityPanel, useActivityItems } from '../components/replay/ActivityTimeline.js';
import type { ActivityItem } from '../components/replay/activity.js';
import { SessionInfo } from '../components/SessionInfo.js';
import { PersonFacts } from '../components/replay/PersonFacts.js';
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
import { liveAfter, liveBatchSeq, NOT_LIVE_OFFLINE } from '../lib/liveFeed.js';
import { useLiveStream } from '../lib/useLiveStream.js';
import { LiveBadge } from '../components/LiveBadge.js';
import { useRecordingNow } from '../lib/useRecordingNow.js';
import { shortId } from '../lib/format.js';
import { SessionNav, useAutoplayNext } from '../components/replay/SessionNav.js';
import { useSessionNeighbours } from '../replay/useSessionNeighbours.js';
import { listFilters, type SessionListContext } from '../lib/sessionListContext.js';
import { IssueMenu, TrackMoment } from '../components/replay/IssueMenu.js';

// The replay first: a compact title, the player (recording and controls within the screen),
// then the session's facts. Size and speeds as every replay (replaySettings), not auto-playing,
// created 100 ms after the data is ready.
export const PLAYER_INIT_DELAY_MS = 100;
const RECONNECT_RETRIES = 5;
const NO_EVENTS: ReplayEvent[] = [];
const NO_ITEMS: ActivityItem[] = [];
const RECONNECT_RETRY_MS = 1000;

interface SessionReplayProps {
  campaignId: string;
  sessionId: string;
  /** Extra buttons (e.g. 'Save for offline'). */
  actions?: ReactNode;
  /** Open the recording at this second (a link to a moment). */
  startAtSeconds?: number;
  /** The sessions list it was opened from: Previous/Next follow it, Back to Campaign returns to it. */
  list?: SessionListContext;
  /** Start playing once loaded (opened by 'Autoplay next'). */
  autoPlay?: boolean;
}

const ALL_SESSIONS: SessionListContext = {};

export function SessionReplay({ campaignId, sessionId, actions, startAtSeconds, list = ALL_SESSIONS, autoPlay = false }: SessionReplayProps) {
  const replay = useQuery({ ...replayQueryOptions(campaignId, sessionId), enabled: Boolean(campaignId && sessionId) });
  const [playerError, setPlayerError] = useState<string | null>(null);
  const saved = useSavedReplay(campaignId, sessionId);
  const campaignName = useCampaignName(campaignId, saved);
  const navigate = useNavigate();
  const backToCampaign = () =>
    void navigate({ to: '/campaign/$campaignId', params: { campaignId }, search: { ...listFilters(list), q: list.q, type: list.type } });
  const neighbours = useSessionNeighbours(campaignId, sessionId, list);
  const [autoplayNext, setAutoplayNext] = useAutoplayNext();
  const openSession = (id: string, play = false) =>
    void navigate({
      to: '/campaign/$campaignId/session/$sessionId',
      params: { campaignId, sessionId: id },
      search: list,
      state: play ? { autoplay: true } : undefined,
    });
  const nav = { neighbours, onOpen: openSession, autoplayNext, onAutoplayNext: setAutoplayNext };

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

  // The session's one replay source: the download (or the device's copy) and the live stream append
  // to it. A replay still downloading starts playing on its first page, unless a moment was asked for.
  const source = replay.data ?? null;
  const snapshot = useReplaySource(source);
  const events = snapshot?.events ?? NO_EVENTS;
  // The activity is worked out on the first page, then again once the download is over (and on
  // each live batch), not on every batch of the download.
  const firstPage = useMemo(() => source?.getSnapshot().events ?? NO_EVENTS, [source]);
  // The player's first frame goes first: the activity and the session's facts are worked out after it.
  const drawn = snapshot?.drawn === true;
  const activityEvents = !drawn ? NO_EVENTS : snapshot?.downloaded ? events : firstPage;
  const notes = useNotes(campaignId, sessionId, saved);
  const activity = useActivityItems(activityEvents, notes);
  const playable = snapshot && (startAtSeconds === undefined || snapshot.downloaded);
  // The player's moment, for 'Create issue' in the header (read when it is used).
  const momentRef = useRef(startAtSeconds === undefined ? 0 : startAtSeconds * 1000);

  // A session still recording is followed live once its download is over: the stream starts after
  // the batches the download carried (and, opened again, after those the source holds then), each
  // batch taken once by its seq. Its end ('ended') makes it a plain replay.
  const inProgress = Boolean(snapshot?.live);
  // 'Live' only while batches arrive: the download's last batch, then each one the stream brings,
  // by the one rule (common/recording-now.ts).
  const [lastLiveBatchAt, setLastLiveBatchAt] = useState(0);
  const init = snapshot?.init;
  const recording = useRecordingNow(
    init?.lastActivityAt === undefined ? undefined : { closed: init.closed, lastActivityAt: Math.max(init.lastActivityAt, lastLiveBatchAt) },
  );
  const liveConnected = useLiveStream({
    path: API_PATHS.liveReplay(campaignId, sessionId),
    enabled: Boolean(source && snapshot?.downloaded && inProgress && snapshot.held),
    after: () => {
      const held = source?.getSnapshot().held;
      return held ? liveAfter(held) : null;
    },
    on: {
      events: (data, id) => {
        try {
          source?.appendLive(liveBatchSeq(id), JSON.parse(data) as ReplayEvent[]);
          setLastLiveBatchAt(Date.now());
        } catch {
          // not a batch of events: ignored
        }
      },
      ended: () => source?.endLive(),
    },
  });

  const missingIds = !campaignId || !sessionId;
  const loadError = replay.isError ? replay.error : snapshot?.error;
  const error = missingIds ? 'Campaign ID and Session ID are required' : loadError ? replayPageMessage(loadError, replayErrorMessage) : playerError;

  return (
    <div className="page replay-page">
      <div className="replay-header">
        <div className="replay-title-row">
          <h1>Session Replay</h1>
          {!missingIds && <SessionNav place="title" {...nav} />}
          <button type="button" className="button button-secondary" onClick={backToCampaign}>
            Back to Campaign
          </button>
        </div>
        <div className="replay-subtitle">
          {/* On a phone: the session's short form (the rest of its id stays in the text, for screen
              readers and copying) and, under the campaign's name, no campaign id (likewise kept). */}
          <p className={`replay-ids${campaignName ? ' replay-ids-named' : ''}`}>
            {campaignName && <span className="replay-campaign-name">{campaignName}</span>}
            <span className="mono small muted" title={sessionId}>
              Session: {shortId(sessionId)}
              <span className="replay-id-tail">{sessionId.slice(shortId(sessionId).length)}</span>
            </span>
            <span className="mono small muted replay-campaign-id" title={campaignId}>
              Campaign: {campaignId}
            </span>
          </p>
          <div className="replay-actions">
            {actions}
            {!missingIds && <ReplayStar campaignId={campaignId} sessionId={sessionId} />}
            <ReplayActions campaignId={campaignId} sessionId={sessionId} />
            {drawn && snapshot.init && (
              <IssueMenu key={sessionId} campaignId={campaignId} sessionId={sessionId} init={snapshot.init} events={activityEvents} momentRef={momentRef} />
            )}
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
      ) : !source || !snapshot || !playable ? (
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
              {inProgress && recording && liveConnected && <LiveBadge title="Following the session as it happens" />}
            </div>
            {inProgress && !online && (
              <p className="player-note" role="note" data-testid="not-live-offline">
                {NOT_LIVE_OFFLINE}
              </p>
            )}
            <ReplayPlayer
              source={source}
              live={inProgress && online}
              underControls={(view) => <ActivityMarkers items={drawn ? activity : NO_ITEMS} totalTime={view.totalTime} onSeek={view.seek} />}
              afterPlayer={(view) => (
                <>
                  <TrackMoment ms={view.currentTime} intoRef={momentRef} />
                  <SessionNav place="phone" {...nav} />
                  {drawn && (
                    <ActivityPanel
                      events={activityEvents}
                      items={activity}
                      currentTime={view.currentTime}
                      onSeek={view.seek}
                      notes={
                        <NotesPanel
                          campaignId={campaignId}
                          sessionId={sessionId}
                          notes={notes}
                          events={activityEvents}
                          currentTime={view.currentTime}
                          onSeek={view.seek}
                        />
                      }
                    />
                  )}
                </>
              )}
              width={REPLAY_WIDTH}
              height={REPLAY_HEIGHT}
              speedOption={REPLAY_SPEEDS}
              delayMs={PLAYER_INIT_DELAY_MS}
              fitToViewport
              shortcuts
              startAtMs={startAtSeconds === undefined ? undefined : startAtSeconds * 1000}
              autoPlay={autoPlay && startAtSeconds === undefined}
              onEnded={() => {
                // A finished recording only: a download still coming or a live session has more to show.
                if (autoplayNext && neighbours.next && source.getSnapshot().downloaded && !inProgress) openSession(neighbours.next, true);
              }}
              onError={(e) => {
                console.error(e);
                setPlayerError('Failed to initialize replay player');
              }}
            />
            {snapshot.downloaded && <MissingAssetsNote events={events} />}
          </section>
          {drawn && snapshot.init && <SessionInfo init={snapshot.init} />}
          {drawn && <PersonFacts campaignId={campaignId} events={activityEvents} />}
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
