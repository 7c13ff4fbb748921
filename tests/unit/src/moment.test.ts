import { describe, expect, it } from 'vitest';
import { momentLink, momentParam } from '../../../src/components/replay/moment.js';

describe('links to a moment', () => {
  it('reads ?t= as whole seconds, refusing anything else', () => {
    expect(momentParam(12)).toBe(12);
    expect(momentParam('12')).toBe(12);
    expect(momentParam('12.7')).toBe(12);
    expect(momentParam(0)).toBe(0);
    for (const bad of [-1, '-3', 'abc', '1e3', '', null, undefined, Number.NaN, Infinity, {}, 10 ** 9]) expect(momentParam(bad), String(bad)).toBeUndefined();
  });

  it('writes the player’s second into the address, keeping the rest', () => {
    expect(momentLink('https://td.example/campaign/c/session/s', 12_900)).toBe('https://td.example/campaign/c/session/s?t=12');
    expect(momentLink('https://td.example/campaign/c/session/s?t=3&x=1#top', 61_000)).toBe('https://td.example/campaign/c/session/s?t=61&x=1');
  });
});
