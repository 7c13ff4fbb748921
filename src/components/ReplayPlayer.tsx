import { useMemo, useRef, useState, type ReactNode } from 'react';
import { PlayerControls } from './player/PlayerControls.js';
import { recordingSize, speedLabel } from './player/playerMath.js';
import { useFullscreen } from './player/useFullscreen.js';
import { ShortcutsHelp } from './player/ShortcutsHelp.js';
import { playerFailureMessage } from './player/loadPlayer.js';
import { usePlayer } from './player/usePlayer.js';
import { useFit } from './player/useFit.js';
import { useFollowSource } from './player/useFollowSource.js';
import { useShortcuts } from './player/useShortcuts.js';
import { finishedSource, useReplaySource, type ReplaySource } from '../replay/replaySource.js';
import type { ReplayEvent } from '../../common/api-types.js';

// The replay player: rrweb-player draws the recording of a replay source (usePlayer), scaled to
// fit (useFit), following what the source gets later (useFollowSource); PlayerControls and the
// page's shortcuts (useShortcuts) drive it. The recorded page is inert: no focus, no link
// activation inside it.

/** What a timeline or list drawn with the player reads and drives. */
export interface PlayerView {
  currentTime: number;
  totalTime: number;
  seek(ms: number): void;
}

export interface ReplayPlayerProps {
  source: ReplaySource;
  /** The recording's size when its meta event has none. */
  width: number;
  height: number;
  speedOption: number[];
  delayMs?: number;
  onError?: (error: unknown) => void;
  /** The player region's name; the recorded page's frame is titled after it. */
  label?: string;
  /** Load the player chunk only once the player is near the screen (the landing page's demo). */
  deferUntilVisible?: boolean;
  /** Keep the recording and the controls within the screen's height, below what comes before them. */
  fitToViewport?: boolean;
  /** At most this many times the recorded size (the landing demo keeps 1). */
  maxScale?: number;
  /** Drawn under the controls, inside the player, from before it is ready (its height counts in the fit). */
  underControls?: (view: PlayerView) => ReactNode;
  /** Drawn after the player (may be below the fold). */
  afterPlayer?: (view: PlayerView) => ReactNode;
  /** The page's keyboard shortcuts (Space, arrows, speeds, F, ?) drive this player. */
  shortcuts?: boolean;
  /** Where the recording opens, paused (a link to a moment). */
  startAtMs?: number;
  /** Follow the session as it records: the player stays at the latest moment until the user seeks back. */
  live?: boolean;
  /** Start playing as soon as the player is made (the next session, opened by 'Autoplay next'). */
  autoPlay?: boolean;
  /** Playing reached the end of the recording. */
  onEnded?: () => void;
}

/** Draws what a caller passed for the player's view (a component, so its callbacks are not render-time reads). */
function ViewSlot({ render, view }: { render: (view: PlayerView) => ReactNode; view: PlayerView }) {
  return render(view);
}

export function ReplayPlayer({
  source,
  width,
  height,
  speedOption,
  delayMs = 0,
  onError,
  label = 'Session replay',
  deferUntilVisible = false,
  fitToViewport = false,
  maxScale,
  underControls,
  afterPlayer,
  shortcuts = false,
  startAtMs,
  live = false,
  autoPlay = false,
  onEnded,
}: ReplayPlayerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const controlsRef = useRef<HTMLDivElement>(null);
  const helpRef = useRef<HTMLDialogElement>(null);
  const events = useReplaySource(source)?.events ?? [];
  const fullscreen = useFullscreen(containerRef);
  const initialSpeed = speedOption.includes(1) ? 1 : speedOption[0];
  const [speed, setSpeed] = useState(initialSpeed);
  const [skipInactive, setSkipInactive] = useState(true);

  const recorded = recordingSize(events, { width, height });
  const recording = useMemo(() => ({ width: recorded.width, height: recorded.height }), [recorded.width, recorded.height]);
  /** Why the player could not start, shown in its place when the caller shows no error of its own. */
  const [failure, setFailure] = useState<string | null>(null);
  const state = usePlayer(source, {
    host: hostRef,
    focusFallback: () => containerRef.current,
    label,
    speedOption,
    speed: initialSpeed,
    delayMs,
    deferUntilVisible,
    firstSize: () => measure() ?? recording,
    startAtMs,
    onError: (error) => {
      setFailure(playerFailureMessage(error));
      onError?.(error);
    },
    onMade: (made) => {
      following.opened(made);
      if (autoPlay && !live) made.rrweb.play();
    },
    onEnded: () => onEnded?.(),
  });
  const { player, playing, skipping, currentTime, totalTime } = state;
  const { size, measure } = useFit({
    container: containerRef,
    stage: stageRef,
    controls: controlsRef,
    recording,
    fitToViewport,
    maxScale,
    fullscreen: fullscreen.active,
    player,
  });
  const following = useFollowSource(source, live, startAtMs, state);
  const ready = player !== null;

  const changeSpeed = (next: number) => {
    player?.rrweb.setSpeed(next);
    setSpeed(next);
  };
  const changeSkipInactive = (on: boolean) => {
    if (on !== skipInactive) player?.rrweb.toggleSkipInactive();
    setSkipInactive(on);
  };
  const seek = (ms: number) => {
    state.seek(ms);
    if (live) following.setFollowing(ms >= totalTime);
  };
  const togglePlay = () => {
    if (live) following.setFollowing(false);
    player?.rrweb.toggle();
  };
  const view: PlayerView = { currentTime, totalTime, seek };
  useShortcuts(shortcuts, {
    ready,
    speedOption,
    help: helpRef,
    togglePlay: () => player?.rrweb.toggle(),
    step: (ms) => seek(Math.max(0, Math.min(totalTime, currentTime + ms))),
    speed: changeSpeed,
    fullscreen: fullscreen.toggle,
  });

  return (
    <>
      <div
        ref={containerRef}
        className={`player${fullscreen.active ? ' player-fullscreen-on' : ''}${fullscreen.emulated ? ' player-expanded' : ''}`}
        role="region"
        aria-label={label}
        tabIndex={-1}
      >
        <div ref={stageRef} className="player-stage" style={size ? { minHeight: size.height } : undefined}>
          {/* inert: the recorded page takes no focus and no clicks; its links cannot navigate. */}
          <div ref={hostRef} className="player-host" inert style={size ? { width: size.width, height: size.height } : undefined} />
          {/* Said while rrweb fast-forwards a gap with no input (skip inactive): how fast. */}
          <p className="player-skipping" role="status">
            {skipping ? `Skipping inactivity ${speedLabel(skipping)}` : ''}
          </p>
          {failure && !onError && (
            <p className="player-failed" role="alert">
              {failure}
            </p>
          )}
        </div>
        <div ref={controlsRef}>
          <PlayerControls
            ready={ready}
            playing={playing}
            currentTime={currentTime}
            totalTime={totalTime}
            speed={speed}
            speedOption={speedOption}
            skipInactive={skipInactive}
            fullscreen={fullscreen.active}
            onTogglePlay={togglePlay}
            onSeek={seek}
            onSpeed={changeSpeed}
            onSkipInactive={changeSkipInactive}
            onToggleFullscreen={fullscreen.toggle}
            onJumpToLive={ready && live && !following.following ? following.jumpToLive : undefined}
          />
          {/* Drawn from the start (before the recording is), so its height is in the first fit. */}
          {underControls && <ViewSlot render={underControls} view={view} />}
        </div>
      </div>
      {ready && afterPlayer && <ViewSlot render={afterPlayer} view={view} />}
      {shortcuts && <ShortcutsHelp ref={helpRef} />}
    </>
  );
}

/** A player for a whole recording at hand (a shared link, a recording file, the demo). */
export function RecordingPlayer({ events, ...props }: Omit<ReplayPlayerProps, 'source' | 'live'> & { events: ReplayEvent[] }) {
  const source = useMemo(() => finishedSource(events), [events]);
  return <ReplayPlayer source={source} {...props} />;
}
