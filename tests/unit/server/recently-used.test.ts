import { describe, expect, it } from 'vitest';
import { RecentlyUsed } from '../../../server/recently-used.js';

// The one bounded in-memory keep (server/recently-used.ts): past the bound, the entry set
// least recently goes first.

describe('RecentlyUsed', () => {
  it('keeps at most its bound, dropping the entry set least recently', () => {
    const kept = new RecentlyUsed<string, number>(2);
    kept.set('a', 1);
    kept.set('b', 2);
    kept.set('a', 3); // set again: now the most recent
    kept.set('c', 4);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([3, undefined, 4]);
  });

  it('forgets a deleted key, which then takes no place', () => {
    const kept = new RecentlyUsed<string, number>(2);
    kept.set('a', 1);
    kept.set('b', 2);
    kept.delete('a');
    kept.set('c', 3);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('forgets everything at once when cleared, and keeps its bound afterwards', () => {
    const kept = new RecentlyUsed<string, number>(2);
    kept.set('a', 1);
    kept.set('b', 2);
    kept.clear();
    expect([kept.get('a'), kept.get('b')]).toEqual([undefined, undefined]);
    for (const [i, key] of ['c', 'd', 'e'].entries()) kept.set(key, i);
    expect([kept.get('c'), kept.get('d'), kept.get('e')]).toEqual([undefined, 1, 2]);
  });
});
