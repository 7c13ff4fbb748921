import { useCallback, useEffect, useState, type RefObject } from 'react';

// Fullscreen for the player's container (recording and controls together). Where the browser
// has no element fullscreen (iPhone Safari) or refuses it, the container is expanded over the
// page instead (`emulated`), and Escape leaves it.

export interface Fullscreen {
  /** Fullscreen, real or emulated. */
  active: boolean;
  emulated: boolean;
  toggle(): void;
}

export function useFullscreen(target: RefObject<HTMLElement | null>): Fullscreen {
  const [real, setReal] = useState(false);
  const [emulated, setEmulated] = useState(false);

  useEffect(() => {
    const onChange = () => setReal(document.fullscreenElement !== null && document.fullscreenElement === target.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [target]);

  useEffect(() => {
    if (!emulated) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setEmulated(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [emulated]);

  const toggle = useCallback(() => {
    const element = target.current;
    if (!element) return;
    if (emulated) return setEmulated(false);
    if (document.fullscreenElement) {
      void document.exitFullscreen().catch(() => undefined);
      return;
    }
    if (typeof element.requestFullscreen !== 'function') return setEmulated(true);
    element.requestFullscreen().catch(() => setEmulated(true));
  }, [target, emulated]);

  return { active: real || emulated, emulated, toggle };
}
