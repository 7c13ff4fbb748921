import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { ReplayEvent } from '../../common/api-types.js';

// rrweb-player (a Svelte component) in a lazy chunk, sized to fit its container while keeping
// the recording's aspect ratio. It is created `delayMs` after the events are ready and destroyed
// (Replayer and component) on unmount — StrictMode's double mount included.

type PlayerInstance = {
  $destroy(): void;
  $set(props: Record<string, unknown>): void;
  triggerResize(): void;
  setSpeed(speed: number): void;
  getReplayer(): { destroy?: () => void; pause?: () => void };
};

export interface ReplayPlayerProps {
  events: ReplayEvent[];
  /** The largest size; on narrow screens the player shrinks to the container width. */
  width: number;
  height: number;
  speedOption: number[];
  /** Extra height kept for the controller (the demo keeps 70 px). */
  controllerHeight?: number;
  delayMs?: number;
  onError?: (error: unknown) => void;
  label?: string;
  /** Load the player chunk only once the player is near the screen (the landing page's demo). */
  deferUntilVisible?: boolean;
}

const CONTROLLER_HEIGHT = 80;

function fit(containerWidth: number, width: number, height: number) {
  const w = Math.max(1, Math.min(width, Math.floor(containerWidth)));
  return { width: w, height: Math.max(1, Math.round((height * w) / width)) };
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

export function ReplayPlayer({ events, width, height, speedOption, controllerHeight = CONTROLLER_HEIGHT, delayMs = 0, onError, label = 'Session replay', deferUntilVisible = false }: ReplayPlayerProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<PlayerInstance | null>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const reportError = useEffectEvent((error: unknown) => onError?.(error));

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const signal = { cancelled: false };
    let timer: number | undefined;
    const frameWidth = () => host.parentElement?.clientWidth || width;
    const initial = fit(frameWidth(), width, height);
    setSize(initial);
    const create = async () => {
      try {
        const [{ default: RrwebPlayer }] = await Promise.all([import('rrweb-player'), import('rrweb-player/dist/style.css')]);
        if (signal.cancelled) return;
        const current = fit(frameWidth(), width, height);
        playerRef.current = new RrwebPlayer({
          target: host,
          props: {
            events: events as never,
            width: current.width,
            height: current.height,
            autoPlay: false,
            showController: true,
            speedOption,
          },
        }) as unknown as PlayerInstance;
        // Start at normal speed when it is offered (the controller starts at the first option).
        if (speedOption[0] !== 1 && speedOption.includes(1)) playerRef.current.setSpeed(1);
      } catch (error) {
        if (!signal.cancelled) reportError(error);
      }
    };
    void (deferUntilVisible ? nearViewport(host, signal) : Promise.resolve()).then(() => {
      if (!signal.cancelled) timer = window.setTimeout(create, delayMs);
    });
    return () => {
      signal.cancelled = true;
      window.clearTimeout(timer);
      const player = playerRef.current;
      playerRef.current = null;
      if (player) {
        try {
          player.getReplayer().pause?.();
          player.getReplayer().destroy?.();
        } catch {
          // already torn down
        }
        player.$destroy();
      }
      host.replaceChildren();
    };
  }, [events, width, height, speedOption, delayMs, deferUntilVisible]);

  // Keep fitting the container when the window (or phone orientation) changes.
  useEffect(() => {
    const host = hostRef.current?.parentElement;
    if (!host || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const next = fit(host.clientWidth, width, height);
      setSize((prev) => (prev && prev.width === next.width ? prev : next));
      const player = playerRef.current;
      if (player) {
        player.$set(next);
        player.triggerResize();
      }
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, [width, height]);

  return (
    <div className="player-frame" aria-label={label} role="region">
      <div
        ref={hostRef}
        className="player-host"
        style={size ? { width: size.width, minHeight: size.height + controllerHeight } : undefined}
      />
    </div>
  );
}
