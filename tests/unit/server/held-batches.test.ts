import { describe, expect, it } from 'vitest';
import { formatHeld, heldOf, holds, MAX_GAPS, NONE_HELD, parseHeld, withBatch } from '../../../common/held-batches.js';
import { MAX_SEQ } from '../../../common/limits.js';

describe('held batches (a live replay’s after=)', () => {
  it('says the highest seq, then the missing seqs and ranges below it', () => {
    const held = heldOf([0, 1, 2, 4, 7, 8, 9]);
    expect(held).toEqual({
      last: 9,
      gaps: [
        [3, 3],
        [5, 6],
      ],
    });
    expect(formatHeld(held)).toBe('9,3,5-6');
    expect(formatHeld(heldOf([2, 0, 1]))).toBe('2');
    expect(formatHeld(heldOf([3]))).toBe('3,0-2');
    expect(formatHeld(NONE_HELD)).toBe('');
  });

  it('reads back what it writes', () => {
    for (const seqs of [[], [0], [0, 1, 2, 4, 7, 8, 9], [5, 10, 12], [MAX_SEQ]]) {
      const held = heldOf(seqs);
      expect(parseHeld(formatHeld(held))).toEqual(held);
    }
  });

  it('fills a gap when a late batch of a lower seq comes, splitting a range', () => {
    const held = parseHeld('9,3,5-7')!;
    expect(formatHeld(withBatch(held, 6))).toBe('9,3,5,7');
    expect(formatHeld(withBatch(held, 3))).toBe('9,5-7');
    expect(formatHeld(withBatch(held, 5))).toBe('9,3,6-7');
    expect(withBatch(held, 8)).toBe(held);
    expect(formatHeld(withBatch(held, 12))).toBe('12,3,5-7,10-11');
    expect(holds(held, 4)).toBe(true);
    expect(holds(held, 6)).toBe(false);
    expect(holds(held, 10)).toBe(false);
  });

  it('keeps the newest gaps only, so the text stays short', () => {
    const everyOther = Array.from({ length: MAX_GAPS + 4 }, (_, i) => 2 * i + 1);
    const held = heldOf(everyOther);
    expect(held.gaps).toHaveLength(MAX_GAPS);
    expect(held.gaps[0]).toEqual([8, 8]);
    expect(holds(held, 0)).toBe(true); // given up: the full replay has it
    expect(parseHeld(formatHeld(held))).toEqual(held);
  });

  it('refuses anything else', () => {
    const gaps = Array.from({ length: MAX_GAPS + 1 }, (_, i) => 2 * i).join(',');
    for (const bad of [
      'x',
      '-1',
      '1e3',
      '01',
      '9,',
      ',9',
      '9 ',
      '9,9',
      '9,10',
      '9,5-3',
      '9,5,3',
      '9,3,4',
      '9,3-4,4-5',
      `${MAX_SEQ + 1}`,
      '99999999999',
      `100,${gaps}`,
      '9;3',
    ]) {
      expect(parseHeld(bad), bad).toBeNull();
    }
    expect(parseHeld('9,3,5')).toEqual({
      last: 9,
      gaps: [
        [3, 3],
        [5, 5],
      ],
    });
  });
});
