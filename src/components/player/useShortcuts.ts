import { useEffect, useEffectEvent, type RefObject } from 'react';
import { isActivationTarget, isTypingTarget, shortcutFor } from './shortcuts.js';

// The page's keyboard shortcuts (Space, arrows, speeds, F, ?) drive one player. Keys typed into a
// field, pressed while the help is open, or already handled elsewhere are left alone.

export interface ShortcutActions {
  ready: boolean;
  speedOption: number[];
  help: RefObject<HTMLDialogElement | null>;
  togglePlay(): void;
  step(ms: number): void;
  speed(speed: number): void;
  fullscreen(): void;
}

export function useShortcuts(enabled: boolean, actions: ShortcutActions): void {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || isTypingTarget(event.target) || actions.help.current?.open) return;
    const action = shortcutFor(event, actions.speedOption);
    if (!action || (action.kind === 'toggle-play' && isActivationTarget(event.target))) return;
    if (!actions.ready && action.kind !== 'help') return;
    event.preventDefault();
    if (action.kind === 'toggle-play') actions.togglePlay();
    else if (action.kind === 'step') actions.step(action.ms);
    else if (action.kind === 'speed') actions.speed(action.speed);
    else if (action.kind === 'fullscreen') actions.fullscreen();
    else actions.help.current?.showModal();
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled]);
}
