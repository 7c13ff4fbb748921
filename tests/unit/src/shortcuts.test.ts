import { describe, expect, it } from 'vitest';
import { isTypingTarget, shortcutFor } from '../../../src/components/player/shortcuts.js';

const speeds = [0.5, 1, 2, 4, 8];

describe('replay shortcuts', () => {
  it('maps Space, arrows, speeds, F and ? to their actions', () => {
    expect(shortcutFor({ key: ' ' }, speeds)).toEqual({ kind: 'toggle-play' });
    expect(shortcutFor({ key: 'ArrowLeft' }, speeds)).toEqual({ kind: 'step', ms: -5000 });
    expect(shortcutFor({ key: 'ArrowRight' }, speeds)).toEqual({ kind: 'step', ms: 5000 });
    expect(shortcutFor({ key: '4' }, speeds)).toEqual({ kind: 'speed', speed: 4 });
    expect(shortcutFor({ key: 'f' }, speeds)).toEqual({ kind: 'fullscreen' });
    expect(shortcutFor({ key: 'F' }, speeds)).toEqual({ kind: 'fullscreen' });
    expect(shortcutFor({ key: '?' }, speeds)).toEqual({ kind: 'help' });
  });

  it('ignores other keys, speeds the player lacks, and keys with a modifier', () => {
    expect(shortcutFor({ key: '3' }, speeds)).toBeNull();
    expect(shortcutFor({ key: '8' }, [0.5, 1, 2])).toBeNull();
    expect(shortcutFor({ key: 'f', ctrlKey: true }, speeds)).toBeNull();
    expect(shortcutFor({ key: 'x' }, speeds)).toBeNull();
  });

  it('leaves keys to fields being typed in', () => {
    const input = document.createElement('input');
    const select = document.createElement('select');
    const button = document.createElement('button');
    expect(isTypingTarget(input)).toBe(true);
    expect(isTypingTarget(select)).toBe(true);
    expect(isTypingTarget(button)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
