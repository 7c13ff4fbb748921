import { useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import type { ReplaySource } from '../../replay/replaySource.js';
import { guardFocus } from './guardFocus.js';
import { destroyPlayer, makePlayer, seekTo, type PlayerHandle } from './rrwebPlayer.js';
import type { Size } from './playerMath.js';

// The player's lifecycle: one rrweb player per replay source, made `delayMs` after the host is
// there (with deferUntilVisible, once it comes near the screen) on the events the source holds
// then, and destroyed (Replayer and component) on unmount or when the source changes, StrictMode's
// double mount included. Everything else it reads once, when it is made: no other prop remakes it.

export interface PlayerOptions {
  host: RefObject<HTMLElement | null>;
  /** Where focus goes when it lands in the recorded page. */
  focusFallback: () => HTMLElement | null;
  label: string;
  speedOption: number[];
  speed: number;
  delayMs: number;
  deferUntilVisible: boolean;
  /** The size it is made at. */
  firstSize: () => Size;
  /** Where it opens, paused (a link to a moment). */
  startAtMs?: number;
  onError(error: unknown): void;
  /** Called with a new player, before it is shown (where it opens). */
  onMade(player: PlayerHandle): void;
  /** Playing reached the recording's end (not a seek to the end while paused). */
  onEnded?: () => void;
}

export interface PlayerState {
  player: PlayerHandle | null;
  playing: boolean;
  /** The speed an inactive gap is being skipped at, else null. */
  skipping: number | null;
  currentTime: number;
  totalTime: number;
  setCurrentTime(ms: number): void;
  setTotalTime(ms: number): void;
  /** Shows the moment `ms` (playing on if it was playing). */
  seek(ms: number): void;
}

/** Resolves when the element comes within a screen of the viewport (at once without IntersectionObserver). */
function nearViewport(element: Element, signal: { cancelled: boolean }): Promise<void> {
  if (typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (signal.cancelled || entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          resolve();
        }
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(element);
  });
}

/** Tells the source once the player's first frame is painted (a frame after it was made). */
function markDrawn(source: ReplaySource) {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(() => source.markDrawn(), 0));
  else source.markDrawn();
}

export function usePlayer(source: ReplaySource, options: PlayerOptions): PlayerState {
  const [player, setPlayer] = useState<PlayerHandle | null>(null);
  const [playing, setPlaying] = useState(false);
  const [skipping, setSkipping] = useState<number | null>(null);
  const [currentTime, setCurrentTime] = useState(0);
  const [totalTime, setTotalTime] = useState(0);
  const settings = useEffectEvent(() => options);
  // A moment before the first snapshot is drawn as just after it (see afterFirstSnapshot); the
  // clock still reads the moment asked for.
  const askedBeforeFirst = useRef<number | null>(null);
  const showTime = useEffectEvent((handle: PlayerHandle, ms: number) => {
    const asked = askedBeforeFirst.current;
    if (asked !== null && ms === handle.firstDrawn) return setCurrentTime(asked);
    askedBeforeFirst.current = null;
    setCurrentTime(ms);
  });
  const { host } = options;

  useEffect(() => {
    const target = host.current;
    if (!target) return;
    const { delayMs, deferUntilVisible } = settings();
    const signal = { cancelled: false };
    let timer: number | undefined;
    let made: PlayerHandle | null = null;
    let stopGuard = () => {};
    const create = async () => {
      try {
        const { firstSize, speedOption, speed, label, focusFallback, startAtMs, onMade } = settings();
        const handle = await makePlayer(target, source.getSnapshot().events, firstSize(), speedOption, speed, setSkipping);
        if (signal.cancelled) return destroyPlayer(handle);
        made = handle;
        const frame = handle.rrweb.getReplayer().iframe;
        if (frame) {
          frame.title = `${label}: the recorded page`;
          frame.tabIndex = -1;
          stopGuard = guardFocus(frame, focusFallback);
        }
        handle.rrweb.addEventListener('ui-update-current-time', (detail) => showTime(handle, (detail as { payload: number }).payload));
        // rrweb also says 'finish' when a seek made while paused draws the last event: only the end
        // of playing counts (the controller reports the pause after rrweb's 'finish').
        let wasPlaying = false;
        handle.rrweb.addEventListener('ui-update-player-state', (detail) => {
          wasPlaying = (detail as { payload: string }).payload === 'playing';
          setPlaying(wasPlaying);
        });
        handle.rrweb.addEventListener('finish', () => wasPlaying && settings().onEnded?.());
        const total = handle.rrweb.getMetaData().totalTime;
        setTotalTime(total);
        if (startAtMs !== undefined && startAtMs > 0) {
          seekTo(handle, Math.min(startAtMs, total), false);
          setCurrentTime(Math.min(startAtMs, total));
        }
        onMade(handle);
        setPlayer(handle);
        markDrawn(source);
      } catch (error) {
        if (!signal.cancelled) settings().onError(error);
      }
    };
    void (deferUntilVisible ? nearViewport(target, signal) : Promise.resolve()).then(() => {
      if (!signal.cancelled) timer = window.setTimeout(create, delayMs);
    });
    return () => {
      signal.cancelled = true;
      window.clearTimeout(timer);
      stopGuard();
      if (made) destroyPlayer(made);
      target.replaceChildren();
      setPlayer(null);
      setPlaying(false);
      setSkipping(null);
      setCurrentTime(0);
    };
  }, [source, host]);

  const seek = (ms: number) => {
    if (!player) return;
    askedBeforeFirst.current = ms < player.firstDrawn ? ms : null;
    seekTo(player, ms);
    setCurrentTime(ms);
  };

  return { player, playing, skipping, currentTime, totalTime, setCurrentTime, setTotalTime, seek };
}
