// The replay page's keyboard shortcuts, as a pure mapping from a key press to what it does, so
// the player and the help overlay read the same list.

import { ARROW_STEP_MS } from './playerMath.js';

export type ShortcutAction =
  { kind: 'toggle-play' } | { kind: 'step'; ms: number } | { kind: 'speed'; speed: number } | { kind: 'fullscreen' } | { kind: 'help' };

/** The scrubber's own arrow step: ← moves as far wherever the focus is. */
export const SHORTCUT_STEP_MS = ARROW_STEP_MS;

/** The keys and what they do, as the help overlay lists them. */
export const SHORTCUTS: [string, string][] = [
  ['Space', 'Play or pause'],
  ['←', 'Back 5 seconds'],
  ['→', 'Forward 5 seconds'],
  ['1, 2, 4, 8', 'Play at 1x, 2x, 4x, 8x'],
  ['F', 'Fullscreen'],
  ['?', 'Show these shortcuts'],
];

/** Where typing goes, a key is the field's own, never a shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/** Space on a focused button, link or disclosure is that control's own click. */
export function isActivationTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  return (target as Element).closest('button, a[href], summary, [role="button"]') !== null;
}

/** What a key press does on the replay page, or null when it is no shortcut (or a modifier is held). */
export function shortcutFor(event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }, speeds: number[]): ShortcutAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case ' ':
      return { kind: 'toggle-play' };
    case 'ArrowLeft':
      return { kind: 'step', ms: -SHORTCUT_STEP_MS };
    case 'ArrowRight':
      return { kind: 'step', ms: SHORTCUT_STEP_MS };
    case 'f':
    case 'F':
      return { kind: 'fullscreen' };
    case '?':
      return { kind: 'help' };
    default: {
      const speed = Number(event.key);
      return ['1', '2', '4', '8'].includes(event.key) && speeds.includes(speed) ? { kind: 'speed', speed } : null;
    }
  }
}
