import type { ReplayEvent } from '../../../common/api-types.js';
import { ADOPTED_STYLE_SHEET, FULL_SNAPSHOT, INCREMENTAL_SNAPSHOT, type Size } from './playerMath.js';
import { loadPlayer } from './loadPlayer.js';
import { keepSeeksExact } from './exactSeeks.js';
import { INACTIVITY_GAP_MS, MAX_SKIP_SPEED, skipSpeed } from '../replay/replaySettings.js';

// rrweb-player (a Svelte component, in a lazy chunk) draws the recording; its own controller is
// off and our controls drive it through the few calls here: make, seek, follow the end, destroy.

export type RrwebPlayer = {
  $destroy(): void;
  $set(props: Record<string, unknown>): void;
  triggerResize(): void;
  setSpeed(speed: number): void;
  toggle(): void;
  goto(timeOffset: number, play?: boolean): void;
  toggleSkipInactive(): void;
  getMetaData(): { totalTime: number };
  addEventListener(event: string, handler: (detail: unknown) => unknown): void;
  play(): void;
  getReplayer(): {
    destroy?: () => void;
    pause?: () => void;
    iframe?: HTMLIFrameElement;
    setConfig?: (config: Record<string, unknown>) => void;
    on?: (event: string, handler: (payload: unknown) => void) => void;
    timer?: { setSpeed(speed: number): void };
    speedService?: { state: { context: { normalSpeed?: number } } };
  };
  addEvent(event: unknown): void;
};

/** A player made for a replay source, and what it was made with. */
export interface PlayerHandle {
  rrweb: RrwebPlayer;
  /** How many of the source's events it was made with (the rest are added as they come). */
  startedWith: number;
  /** The earliest moment it seeks to (see afterFirstSnapshot). */
  firstDrawn: number;
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
  events.some((event) => event.type === INCREMENTAL_SNAPSHOT && (event.data as { source?: number } | undefined)?.source === ADOPTED_STYLE_SHEET);

/**
 * Just after the recording's first full snapshot. Sought to before it (at 0), rrweb draws nothing
 * but forgets the page it shows (its node map is emptied) while still counting the later events as
 * played, so every later seek forward would patch a page it no longer knows: the start and any
 * moment before this one are drawn as this one (what a fresh player shows at 0).
 */
export function afterFirstSnapshot(events: readonly ReplayEvent[]): number {
  const first = events[0]?.timestamp ?? 0;
  return (events.find((event) => event.type === FULL_SNAPSHOT)?.timestamp ?? first) - first + 1;
}

/** What rrweb-player is made with: our controls, our fit, and the spec's skip-inactive defaults. */
export function playerProps(events: readonly ReplayEvent[], size: Size, speedOption: number[], speed: number) {
  return {
    events: events as never,
    ...size,
    // Scaled by our own fit (which may enlarge a small recording), not capped at 1.
    maxScale: 0,
    autoPlay: false,
    showController: false,
    skipInactive: true,
    // Passed on to rrweb's Replayer: what counts as a gap, and the fastest it runs one.
    inactivePeriodThreshold: INACTIVITY_GAP_MS,
    maxSpeed: MAX_SKIP_SPEED,
    speedOption,
    speed,
    useVirtualDom: !needsRealDomSeek(events),
  };
}

/**
 * When rrweb starts skipping a gap, the gap runs at our speed (skipSpeed) instead of rrweb's;
 * `onSkip` hears that speed, and null when the gap is over.
 */
function speedUpSkips(rrweb: RrwebPlayer, onSkip: (speed: number | null) => void) {
  const replayer = rrweb.getReplayer();
  replayer.on?.('skip-start', (payload) => {
    const chosen = (payload as { speed?: number } | undefined)?.speed;
    if (typeof chosen !== 'number') return;
    const speed = skipSpeed(chosen, replayer.speedService?.state.context.normalSpeed);
    replayer.timer?.setSpeed(speed);
    onSkip(speed);
  });
  replayer.on?.('skip-end', () => onSkip(null));
}

export async function makePlayer(
  host: HTMLElement,
  events: readonly ReplayEvent[],
  size: Size,
  speedOption: number[],
  speed: number,
  onSkip: (speed: number | null) => void = () => {},
): Promise<PlayerHandle> {
  const [{ default: RrwebPlayer }] = await loadPlayer();
  const rrweb = new RrwebPlayer({ target: host, props: playerProps(events, size, speedOption, speed) }) as unknown as RrwebPlayer;
  speedUpSkips(rrweb, onSkip);
  keepSeeksExact(rrweb.getReplayer());
  return { rrweb, startedWith: events.length, firstDrawn: afterFirstSnapshot(events) };
}

/** Shows the moment `ms` (playing on if `play`), never before the first snapshot (see afterFirstSnapshot). */
export function seekTo(player: PlayerHandle, ms: number, play?: boolean): void {
  player.rrweb.goto(Math.max(ms, player.firstDrawn), play);
}

/** Adds events after those the player holds (rrweb adds them on its next microtask: so does the promise). */
export function addEvents(player: PlayerHandle, added: readonly ReplayEvent[]): Promise<void> {
  // A stylesheet adopted later in the recording: seeks go through the real DOM from now on.
  if (needsRealDomSeek(added)) player.rrweb.getReplayer().setConfig?.({ useVirtualDom: false });
  for (const event of added) player.rrweb.addEvent(event);
  return Promise.resolve();
}

/** Live: shows the latest moment, all of it drawn (the end plus one ms: nothing left pending); returns the length. */
export function goLive(player: PlayerHandle): number {
  const total = player.rrweb.getMetaData().totalTime;
  player.rrweb.goto(total + 1, false);
  return total;
}

export function destroyPlayer(player: PlayerHandle) {
  try {
    player.rrweb.getReplayer().pause?.();
    player.rrweb.getReplayer().destroy?.();
  } catch {
    // already torn down
  }
  player.rrweb.$destroy();
}
