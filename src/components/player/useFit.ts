import { useEffect, useEffectEvent, useLayoutEffect, useState, type RefObject } from 'react';
import { fitRecording, type Size } from './playerMath.js';
import type { PlayerHandle } from './rrwebPlayer.js';

// The recording is scaled to the largest size that fits: the container's width and, with
// fitToViewport, the screen below the page's header with the controls still in view; in
// fullscreen, the whole screen. Fitted before the first paint, and again whenever the container,
// the page's layout, the window or fullscreen changes; the player follows the fitted size.

/** The screen's share the demo may take when it does not fit to the viewport. */
const DEMO_HEIGHT_SHARE = 0.75;
/** Room kept under the controls (the card's padding). */
const BOTTOM_GAP = 16;
/** Never smaller than this, even on a very short screen. */
const MIN_HEIGHT = 160;
/** A screen this short (a phone held sideways) gives the player its whole height, less a sticky header: the page scrolls the rest away. */
const SHORT_SCREEN = 500;

export interface FitOptions {
  container: RefObject<HTMLElement | null>;
  stage: RefObject<HTMLElement | null>;
  controls: RefObject<HTMLElement | null>;
  /** The recorded viewport's size. */
  recording: Size;
  fitToViewport: boolean;
  maxScale?: number;
  fullscreen: boolean;
  player: PlayerHandle | null;
}

/** The page header's height when it stays on screen while scrolling (sticky or fixed), else 0. */
function stickyHeaderHeight(): number {
  const header = document.querySelector('header');
  if (!header) return 0;
  const { position } = getComputedStyle(header);
  return position === 'sticky' || position === 'fixed' ? header.offsetHeight : 0;
}

const sameSize = (a: Size | null, b: Size) => a !== null && a.width === b.width && a.height === b.height;

/** The fitted size (null before the first fit) and the measure a new player starts at. */
export function useFit({ container, stage, controls, recording, fitToViewport, maxScale, fullscreen, player }: FitOptions) {
  const [size, setSize] = useState<Size | null>(null);
  const { width, height } = recording;

  /** The largest size the recording fits in now. */
  const measure = (): Size | null => {
    const box = container.current;
    const stageBox = stage.current;
    if (!box || !stageBox) return null;
    const recorded = { width, height };
    const controlsHeight = controls.current?.offsetHeight ?? 0;
    let roomHeight: number;
    if (fullscreen) {
      roomHeight = box.clientHeight - controlsHeight;
    } else if (fitToViewport) {
      const top = window.innerHeight < SHORT_SCREEN ? stickyHeaderHeight() : stageBox.getBoundingClientRect().top + window.scrollY;
      roomHeight = Math.max(MIN_HEIGHT, window.innerHeight - top - controlsHeight - BOTTOM_GAP);
    } else {
      roomHeight = Math.max(MIN_HEIGHT, window.innerHeight * DEMO_HEIGHT_SHARE);
    }
    return fitRecording(recorded, { width: stageBox.clientWidth || recorded.width, height: roomHeight }, fullscreen ? undefined : maxScale);
  };

  const refit = useEffectEvent(() => {
    const next = measure();
    if (next) setSize((previous) => (sameSize(previous, next) ? previous : next));
  });

  // Measured again before paint whenever what the fit depends on changes.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- measuring the laid-out DOM before paint is what a layout effect is for
  useLayoutEffect(() => refit(), [width, height, fitToViewport, maxScale, fullscreen]);
  useEffect(() => {
    const box = container.current;
    const onResize = () => refit();
    window.addEventListener('resize', onResize);
    const observer = typeof ResizeObserver === 'undefined' || !box ? null : new ResizeObserver(onResize);
    if (box) observer?.observe(box);
    // The room below the header also moves when what stands above the player settles (the
    // session's details drawn after the first frame, fonts): the page's height changes with it.
    // On a slow machine that comes after the first fit, so the fit follows it.
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', onResize);
      observer?.disconnect();
    };
  }, [container]);

  // The player follows the fitted size (a new player is made at the size measured then).
  const apply = useEffectEvent(() => {
    if (!player || !size) return;
    player.rrweb.$set({ ...size });
    player.rrweb.triggerResize();
  });
  useEffect(() => apply(), [player, size]);
  // rrweb-player resizes itself on every fullscreen change of the page (to its box on entering, to
  // the size it had then on leaving, which may be the fullscreen size we gave it meanwhile), before
  // or after our fit, as fast as the machine goes: whenever its box is not our size, ours is put
  // back. Its resize on leaving is made in its fullscreenchange listener, which runs before ours
  // (it was added first); the ResizeObserver sees any other.
  const keep = useEffectEvent((box: HTMLElement) => {
    if (size && !sameSize(size, { width: box.offsetWidth, height: box.offsetHeight })) apply();
  });
  useEffect(() => {
    const box = player && container.current?.querySelector<HTMLElement>('.rr-player');
    if (!box) return;
    const check = () => keep(box);
    document.addEventListener('fullscreenchange', check);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    observer?.observe(box);
    return () => {
      document.removeEventListener('fullscreenchange', check);
      observer?.disconnect();
    };
  }, [player, container]);

  return { size, measure };
}
