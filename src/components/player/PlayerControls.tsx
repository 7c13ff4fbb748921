import type { CSSProperties, KeyboardEvent } from 'react';
import { formatPlayerTime, seekForKey, speedLabel } from './playerMath.js';

// The player's own controls, drawn by us rather than rrweb-player's controller so every one
// is a named, focusable, touch-sized control: play/pause, a scrubber that is a real range input,
// speeds, the skip-inactive switch and fullscreen. Keyboard shortcuts or a timeline of events can
// be added beside them, driving the same callbacks.

export interface PlayerControlsProps {
  /** False until the recording is loaded: the controls show, disabled. */
  ready: boolean;
  playing: boolean;
  currentTime: number;
  totalTime: number;
  speed: number;
  speedOption: number[];
  skipInactive: boolean;
  fullscreen: boolean;
  onTogglePlay(): void;
  onSeek(ms: number): void;
  onSpeed(speed: number): void;
  onSkipInactive(on: boolean): void;
  onToggleFullscreen(): void;
  /** A live session seen behind its latest moment: 'Jump to live' shows beside the total time. */
  onJumpToLive?: () => void;
}

function PlayIcon({ playing }: { playing: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {playing ? <path d="M7 5h4v14H7zM13 5h4v14h-4z" fill="currentColor" /> : <path d="M8 5v14l11-7z" fill="currentColor" />}
    </svg>
  );
}

function FullscreenIcon({ fullscreen }: { fullscreen: boolean }) {
  const path = fullscreen ? 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5' : 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5';
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function PlayerControls(props: PlayerControlsProps) {
  const { ready, playing, currentTime, totalTime, speed, speedOption, skipInactive, fullscreen } = props;
  const current = Math.min(currentTime, totalTime);

  // Our own keys so arrows step in seconds and End reaches the very end (a native range snaps to its step).
  const onSliderKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const target = seekForKey(event.key, current, totalTime);
    if (target === null) return;
    event.preventDefault();
    props.onSeek(target);
  };

  return (
    <div className="player-controls" role="group" aria-label="Player controls">
      <button type="button" className="player-button player-play" aria-label={playing ? 'Pause' : 'Play'} disabled={!ready} onClick={props.onTogglePlay}>
        <PlayIcon playing={playing} />
      </button>
      <div className="player-timeline">
        <span className="player-time player-time-current" data-testid="player-time">
          {formatPlayerTime(current)}
        </span>
        <input
          type="range"
          className="player-slider"
          aria-label="Playback position"
          aria-valuetext={`${formatPlayerTime(current)} of ${formatPlayerTime(totalTime)}`}
          min={0}
          max={Math.max(totalTime, 1)}
          step="any"
          value={current}
          disabled={!ready}
          onChange={(event) => props.onSeek(Number(event.target.value))}
          onKeyDown={onSliderKey}
          style={{ '--played': `${totalTime > 0 ? (100 * current) / totalTime : 0}%` } as CSSProperties}
        />
        <span className="player-time player-time-total">{formatPlayerTime(totalTime)}</span>
      </div>
      {/* Beside the length (never instead of it), right after the scrubber's row in the tab order,
          never over the recording; on a phone in fullscreen it leaves the scrubber the whole row. */}
      {props.onJumpToLive && (
        <button type="button" className="player-button player-jump-live" aria-label="Jump to live" title="Jump to live" onClick={props.onJumpToLive}>
          <span className="live-dot" aria-hidden="true" />
          <span className="player-jump-live-text">Live</span>
        </button>
      )}
      <div className="player-options">
        <div className="player-speeds" role="group" aria-label="Playback speed">
          {speedOption.map((option) => (
            <button
              key={option}
              type="button"
              className="player-button player-speed"
              aria-pressed={option === speed}
              disabled={!ready}
              onClick={() => props.onSpeed(option)}
            >
              {speedLabel(option)}
            </button>
          ))}
        </div>
        <label className="player-switch">
          <input type="checkbox" role="switch" checked={skipInactive} disabled={!ready} onChange={(event) => props.onSkipInactive(event.target.checked)} />
          <span>Skip inactive</span>
        </label>
      </div>
      {/* Last in the tab order; on phones it sits at the end of the scrubber's row. */}
      <button
        type="button"
        className="player-button player-fullscreen"
        aria-label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
        disabled={!ready}
        onClick={props.onToggleFullscreen}
      >
        <FullscreenIcon fullscreen={fullscreen} />
      </button>
    </div>
  );
}
