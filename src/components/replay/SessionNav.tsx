import { useState } from 'react';
import type { Neighbours } from '../../lib/sessionListContext.js';

// Previous / Next session and 'Autoplay next' on the replay page (as PostHog has them): the
// neighbours come from the list the replay was opened from (useSessionNeighbours). Autoplay next
// is a switch kept on this device; when a replay plays to its end, the next one opens and plays.

declare module '@tanstack/history' {
  interface HistoryState {
    /** The replay this entry opens starts playing (opened by 'Autoplay next', not on a reload's own choice). */
    autoplay?: boolean;
  }
}

const AUTOPLAY_KEY = 'tapedeck.autoplayNext';

function storedAutoplay(): boolean {
  try {
    return localStorage.getItem(AUTOPLAY_KEY) === 'on';
  } catch {
    return false; // storage blocked: off, as by default
  }
}

export function useAutoplayNext(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(storedAutoplay);
  const choose = (next: boolean) => {
    setOn(next);
    try {
      localStorage.setItem(AUTOPLAY_KEY, next ? 'on' : 'off');
    } catch {
      // not kept: the choice still holds on this page
    }
  };
  return [on, choose];
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d={direction === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

interface SessionNavProps {
  neighbours: Neighbours;
  onOpen(sessionId: string): void;
  autoplayNext: boolean;
  onAutoplayNext(on: boolean): void;
  /** Where it is drawn: the page shows one of its two places at a time (the title row, or under the player on a phone). */
  place: 'title' | 'phone';
}

export function SessionNav({ neighbours, onOpen, autoplayNext, onAutoplayNext, place }: SessionNavProps) {
  const { previous, next } = neighbours;
  return (
    <nav className={`replay-nav replay-nav-${place}`} aria-label="Sessions in this list">
      <button
        type="button"
        className="button button-secondary button-small"
        aria-label="Previous session"
        disabled={!previous}
        onClick={() => previous && onOpen(previous)}
      >
        <Chevron direction="left" />
        <span>Previous</span>
      </button>
      <button type="button" className="button button-secondary button-small" aria-label="Next session" disabled={!next} onClick={() => next && onOpen(next)}>
        <span>Next</span>
        <Chevron direction="right" />
      </button>
      <label className="replay-autoplay">
        <input type="checkbox" role="switch" checked={autoplayNext} onChange={(event) => onAutoplayNext(event.target.checked)} />
        <span>Autoplay next</span>
      </label>
    </nav>
  );
}
