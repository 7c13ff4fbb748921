import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ReplayEvent } from '../../common/api-types.js';
import { PlayerControls } from './player/PlayerControls.js';
import { fitRecording, recordingSize, type Size } from './player/playerMath.js';
import { useFullscreen } from './player/useFullscreen.js';
import { isActivationTarget, isTypingTarget, shortcutFor } from './player/shortcuts.js';
import { ShortcutsHelp } from './player/ShortcutsHelp.js';
import { loadPlayer, playerFailureMessage } from './player/loadPlayer.js';
import { EventType, IncrementalSource } from '@rrweb/types';

// rrweb-player (a Svelte component, in a lazy chunk) draws the recording; its own controller is
// off and PlayerControls drives it instead. The recording is scaled to the largest size that
// fits: the container's width and, with fitToViewport, the screen below the page's header with
// the controls still in view; in fullscreen, the whole screen. The recorded page is inert: no
// focus, no link activation inside it. The player is created `delayMs` after the events are ready
// and destroyed (Replayer and component) on unmount — StrictMode's double mount included.

type RrwebPlayer = {
  $destroy(): void;
  $set(props: Record<string, unknown>): void;
  triggerResize(): void;
  setSpeed(speed: number): void;
  toggle(): void;
  goto(timeOffset: number, play?: boolean): void;
  toggleSkipInactive(): void;
  getMetaData(): { totalTime: number };
  addEventListener(event: string, handler: (detail: unknown) => unknown): void;
  getReplayer(): { destroy?: () => void; pause?: () => void; iframe?: HTMLIFrameElement };
  addEvent(event: unknown): void;
};

/** A live session's new events, for a player that follows it as it happens. */
export interface LiveFeed {
  /** Calls `onEvents` with each batch of new events, in order; returns the unsubscribe. */
  subscribe(onEvents: (events: ReplayEvent[]) => void): () => void;
}

/** What a timeline or list drawn with the player reads and drives. */
export interface PlayerView {
  currentTime: number;
  totalTime: number;
  seek(ms: number): void;
}

export interface ReplayPlayerProps {
  events: ReplayEvent[];
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
  /** Drawn under the controls, inside the player (its height counts in the fit). */
  underControls?: (view: PlayerView) => ReactNode;
  /** Drawn after the player (may be below the fold). */
  afterPlayer?: (view: PlayerView) => ReactNode;
  /** The page's keyboard shortcuts (Space, arrows, speeds, F, ?) drive this player. */
  shortcuts?: boolean;
  /** Where the recording opens, paused (a link to a moment). */
  startAtMs?: number;
  /** Follow a session still recording: new events are added as they come and the player stays at
   * the latest moment until the user seeks back ('Jump to live' returns there). */
  live?: LiveFeed;
  /** The rest of a recording still downloading: added as it comes, the player staying where it is. */
  more?: LiveFeed;
}

/** The screen's share the demo may take when it does not fit to the viewport. */
const DEMO_HEIGHT_SHARE = 0.75;
/** Room kept under the controls (the card's padding). */
const BOTTOM_GAP = 16;
/** Never smaller than this, even on a very short screen. */
const MIN_HEIGHT = 160;
/** A screen this short (a phone held sideways) gives the player its whole height, less a sticky header: the page scrolls the rest away. */
const SHORT_SCREEN = 500;

/** The page header's height when it stays on screen while scrolling (sticky or fixed), else 0. */
function stickyHeaderHeight(): number {
  const header = document.querySelector('header');
  if (!header) return 0;
  const { position } = getComputedStyle(header);
  return position === 'sticky' || position === 'fixed' ? header.offsetHeight : 0;
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
      { rootMargin: '200px' },
    );
    observer.observe(element);
  });
}

/**
 * rrweb seeks by fast-forwarding the events into a virtual DOM and patching the page once, but
 * that patch restyles constructable stylesheets before it creates the ones shadow roots adopted
 * during the fast-forward, so those restylings are lost (web components built with constructable
 * stylesheets, as Lit does, look different after a seek than when played through). A recording
 * that adopts stylesheets (rrweb's AdoptedStyleSheet source, 15) seeks on the real DOM instead;
 * every other recording keeps the faster virtual-DOM seek.
 */
export const needsRealDomSeek = (events: readonly ReplayEvent[]) =>
  events.some((event) => event.type === EventType.IncrementalSnapshot && (event.data as { source?: number } | undefined)?.source === IncrementalSource.AdoptedStyleSheet);

/**
 * Just after the recording's first full snapshot. Paused before it (at 0), rrweb draws nothing and
 * empties its node map, so a live player coming back to the latest moment could not apply the new
 * events to the page still shown: it draws the page here before going earlier or to the latest moment.
 */
function afterFirstSnapshot(events: ReplayEvent[]): number {
  const first = events[0]?.timestamp ?? 0;
  return (events.find((event) => event.type === EventType.FullSnapshot)?.timestamp ?? first) - first + 1;
}

/** A live session whose last event is this recent opens at the latest moment (else at the start). */
const LIVE_RECENT_MS = 30_000;

/** Live: shows the latest moment, all of it drawn (the end plus one ms: nothing left pending); returns the length. */
function goLive(player: RrwebPlayer): number {
  const total = player.getMetaData().totalTime;
  player.goto(total + 1, false);
  return total;
}

function destroyPlayer(player: RrwebPlayer) {
  try {
    player.getReplayer().pause?.();
    player.getReplayer().destroy?.();
  } catch {
    // already torn down
  }
  player.$destroy();
}

/**
 * inert keeps Tab, the pointer and assistive technology out of the recorded page, but Chromium
 * still lets a script focus an element inside the frame, and a key pressed then would reach it
 * (Enter on a recorded link loads the live site in the player). Focus that lands in the frame
 * is sent back to the player itself (focusable by script only, and Enter there does nothing).
 */
function guardFocus(frame: HTMLIFrameElement, fallback: () => HTMLElement | null | undefined): () => void {
  let timer: number | undefined;
  const sendBack = () => {
    if (document.activeElement !== frame) return;
    const target = fallback();
    if (target) target.focus();
    else frame.blur();
  };
  // Once the focus change is over: moved back while it is under way, it stays in the frame.
  const later = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(sendBack, 0);
  };
  window.addEventListener('blur', later);
  frame.addEventListener('focus', later);
  return () => {
    window.clearTimeout(timer);
    window.removeEventListener('blur', later);
    frame.removeEventListener('focus', later);
  };
}

/** Draws what a caller passed for the player's view (a component, so its callbacks are not render-time reads). */
function ViewSlot({ render, view }: { render: (view: PlayerView) => ReactNode; view: PlayerView }) {
  return render(view);
}

const sameSize = (a: Size | null, b: Size) => a !== null && a.width === b.width && a.height === b.height;

export function ReplayPlayer({
  events,
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
  live,
  more,
}: ReplayPlayerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const controlsRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<RrwebPlayer | null>(null);
  const reportError = useEffectEvent((error: unknown) => onError?.(error));

  const initialSpeed = speedOption.includes(1) ? 1 : speedOption[0];
  const [ready, setReady] = useState(false);
  /** Why the player could not start, shown in its place when the caller shows no error of its own. */
  const [failure, setFailure] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [currentTime, setCurrentTime] = useState(0);
  const [totalTime, setTotalTime] = useState(0);
  const [speed, setSpeed] = useState(initialSpeed);
  const [skipInactive, setSkipInactive] = useState(true);
  const [size, setSize] = useState<Size | null>(null);
  /** Live: the player shows the latest moment as events come (until the user seeks back). */
  const [following, setFollowingState] = useState(true);
  // Read by live events, which can arrive before a change of it has been rendered (the feed hands
  // over what it holds as soon as it is subscribed to, right after the player chose where to open).
  const followingNow = useRef(true);
  const setFollowing = useCallback((value: boolean) => {
    followingNow.current = value;
    setFollowingState(value);
  }, []);
  const fullscreen = useFullscreen(containerRef);

  /** The largest size the recording fits in now. */
  const measure = useCallback((): Size | null => {
    const container = containerRef.current;
    const stage = stageRef.current;
    if (!container || !stage) return null;
    const recording = recordingSize(events, { width, height });
    const controls = controlsRef.current?.offsetHeight ?? 0;
    let roomHeight: number;
    if (fullscreen.active) {
      roomHeight = container.clientHeight - controls;
    } else if (fitToViewport) {
      const top = window.innerHeight < SHORT_SCREEN ? stickyHeaderHeight() : stage.getBoundingClientRect().top + window.scrollY;
      roomHeight = Math.max(MIN_HEIGHT, window.innerHeight - top - controls - BOTTOM_GAP);
    } else {
      roomHeight = Math.max(MIN_HEIGHT, window.innerHeight * DEMO_HEIGHT_SHARE);
    }
    return fitRecording(recording, { width: stage.clientWidth || recording.width, height: roomHeight }, fullscreen.active ? undefined : maxScale);
  }, [events, width, height, fitToViewport, maxScale, fullscreen.active]);

  const refit = useCallback(() => {
    const next = measure();
    if (next) setSize((previous) => (sameSize(previous, next) ? previous : next));
  }, [measure]);

  // Fit before the first paint, and again whenever the container, the window or fullscreen changes.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- measuring the laid-out DOM before paint is what a layout effect is for
  useLayoutEffect(refit, [refit]);
  /** The moment a new player opens at (read once, when it is created). */
  const startAtFor = useEffectEvent(() => startAtMs);
  const toLiveEdge = (player: RrwebPlayer) => {
    const total = goLive(player);
    setTotalTime(total);
    setCurrentTime(total);
  };
  const liveEvents = useEffectEvent((player: RrwebPlayer, added: ReplayEvent[]) => {
    for (const event of added) player.addEvent(event);
    // rrweb adds them on its next microtask.
    void Promise.resolve().then(() => {
      if (playerRef.current !== player) return;
      if (followingNow.current) toLiveEdge(player);
      else setTotalTime(player.getMetaData().totalTime);
    });
  });
  const liveFeed = useEffectEvent(() => live);
  const moreFeed = useEffectEvent(() => more);
  /** The rest of a recording still downloading: its length grows, nothing else moves. */
  const moreEvents = useEffectEvent((player: RrwebPlayer, added: ReplayEvent[]) => {
    for (const event of added) player.addEvent(event);
    // rrweb adds them on its next microtask.
    void Promise.resolve().then(() => {
      if (playerRef.current === player) setTotalTime(player.getMetaData().totalTime);
    });
  });
  /** The size a new player starts at (later fits go through the size effect). */
  const firstFit = useEffectEvent(() => measure() ?? recordingSize(events, { width, height }));
  useEffect(() => {
    const container = containerRef.current;
    window.addEventListener('resize', refit);
    const observer = typeof ResizeObserver === 'undefined' || !container ? null : new ResizeObserver(refit);
    if (container) observer?.observe(container);
    return () => {
      window.removeEventListener('resize', refit);
      observer?.disconnect();
    };
  }, [refit]);

  // The player follows the fitted size.
  useEffect(() => {
    const player = playerRef.current;
    if (!player || !size) return;
    player.$set({ ...size });
    player.triggerResize();
  }, [size]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const signal = { cancelled: false };
    let timer: number | undefined;
    let stopGuard = () => {};
    let stopLive = () => {};
    let stopMore = () => {};
    const create = async () => {
      try {
        const [{ default: RrwebPlayer }] = await loadPlayer();
        if (signal.cancelled) return;
        const fitted = firstFit();
        const startAt = startAtFor();
        const player = new RrwebPlayer({
          target: host,
          props: {
            events: events as never,
            ...fitted,
            // Scaled by our own fit (which may enlarge a small recording), not capped at 1.
            maxScale: 0,
            autoPlay: false,
            showController: false,
            skipInactive: true,
            speedOption,
            speed: initialSpeed,
            useVirtualDom: !needsRealDomSeek(events),
          },
        }) as unknown as RrwebPlayer;
        playerRef.current = player;
        const frame = player.getReplayer().iframe;
        if (frame) {
          frame.title = `${label}: the recorded page`;
          frame.tabIndex = -1;
          stopGuard = guardFocus(frame, () => containerRef.current);
        }
        player.addEventListener('ui-update-current-time', (detail) => setCurrentTime((detail as { payload: number }).payload));
        player.addEventListener('ui-update-player-state', (detail) => setPlaying((detail as { payload: string }).payload === 'playing'));
        const total = player.getMetaData().totalTime;
        setTotalTime(total);
        if (startAt !== undefined && startAt > 0) {
          player.goto(Math.min(startAt, total), false);
          setCurrentTime(Math.min(startAt, total));
        }
        setSize(fitted);
        setReady(true);
        const feed = liveFeed();
        if (feed) {
          // A visitor active just now is followed at once; a session quiet for a while opens as
          // a replay does, with 'Jump to live' to catch up.
          const recent = Date.now() - (events.at(-1)?.timestamp ?? 0) <= LIVE_RECENT_MS;
          // A moment asked for (?t=, even 0) is shown, not the latest one.
          setFollowing(recent && startAt === undefined);
          if (recent && startAt === undefined) {
            const edge = goLive(player);
            setTotalTime(edge);
            setCurrentTime(edge);
          }
          stopLive = feed.subscribe((added) => liveEvents(player, added));
        }
        stopMore = moreFeed()?.subscribe((added) => moreEvents(player, added)) ?? stopMore;
      } catch (error) {
        if (signal.cancelled) return;
        setFailure(playerFailureMessage(error));
        reportError(error);
      }
    };
    void (deferUntilVisible ? nearViewport(host, signal) : Promise.resolve()).then(() => {
      if (!signal.cancelled) timer = window.setTimeout(create, delayMs);
    });
    return () => {
      signal.cancelled = true;
      window.clearTimeout(timer);
      stopGuard();
      stopLive();
      stopMore();
      const player = playerRef.current;
      playerRef.current = null;
      if (player) destroyPlayer(player);
      host.replaceChildren();
      setReady(false);
      setFailure(null);
      setPlaying(false);
      setCurrentTime(0);
    };
  }, [events, width, height, speedOption, initialSpeed, delayMs, deferUntilVisible, label, setFollowing]);

  const changeSpeed = (next: number) => {
    playerRef.current?.setSpeed(next);
    setSpeed(next);
  };
  const changeSkipInactive = (on: boolean) => {
    if (on !== skipInactive) playerRef.current?.toggleSkipInactive();
    setSkipInactive(on);
  };
  const seek = (ms: number) => {
    // Live, the start is drawn first (see afterFirstSnapshot), then the moment asked for.
    const drawn = afterFirstSnapshot(events);
    if (live && ms < drawn) playerRef.current?.goto(drawn, false);
    playerRef.current?.goto(ms);
    setCurrentTime(ms);
    if (live) setFollowing(ms >= totalTime);
  };
  const jumpToLive = () => {
    const player = playerRef.current;
    if (!player) return;
    setFollowing(true);
    // rrweb draws the page again from its first snapshot only when going back from later than it:
    // to the end, back to just after that snapshot (drawn afresh), then the rest (see afterFirstSnapshot).
    goLive(player);
    player.goto(afterFirstSnapshot(events), false);
    toLiveEdge(player);
  };
  const view: PlayerView = { currentTime, totalTime, seek };

  const helpRef = useRef<HTMLDialogElement>(null);
  const onShortcut = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (event.defaultPrevented || isTypingTarget(event.target) || helpRef.current?.open) return;
    const action = shortcutFor(event, speedOption);
    if (!action || (action.kind === 'toggle-play' && isActivationTarget(event.target))) return;
    if (!ready && action.kind !== 'help') return;
    event.preventDefault();
    if (action.kind === 'toggle-play') playerRef.current?.toggle();
    else if (action.kind === 'step') seek(Math.max(0, Math.min(totalTime, currentTime + action.ms)));
    else if (action.kind === 'speed') changeSpeed(action.speed);
    else if (action.kind === 'fullscreen') fullscreen.toggle();
    else helpRef.current?.showModal();
  });
  useEffect(() => {
    if (!shortcuts) return;
    const listener = (event: globalThis.KeyboardEvent) => onShortcut(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [shortcuts]);

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
            onTogglePlay={() => {
              if (live) setFollowing(false);
              playerRef.current?.toggle();
            }}
            onSeek={seek}
            onSpeed={changeSpeed}
            onSkipInactive={changeSkipInactive}
            onToggleFullscreen={fullscreen.toggle}
            onJumpToLive={ready && live && !following ? jumpToLive : undefined}
          />
          {ready && underControls && <ViewSlot render={underControls} view={view} />}
        </div>
      </div>
      {ready && afterPlayer && <ViewSlot render={afterPlayer} view={view} />}
      {shortcuts && <ShortcutsHelp ref={helpRef} />}
    </>
  );
}
