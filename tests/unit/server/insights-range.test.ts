import { describe, expect, it } from 'vitest';
import { bucketStarts, DAY_MS, HOUR_MS, insightsRange } from '../../../common/insights.js';

const NOW = Date.UTC(2026, 5, 15, 12, 30);

describe('insightsRange', () => {
  it('covers the 30 days before now when no range is given, in days from the start of the first', () => {
    expect(insightsRange(undefined, undefined, NOW)).toEqual({ from: Date.UTC(2026, 4, 16), to: NOW, bucketMs: DAY_MS });
  });

  it('keeps the start of a range drawn in hours', () => {
    expect(insightsRange(NOW - DAY_MS, NOW, NOW)).toEqual({ from: NOW - DAY_MS, to: NOW, bucketMs: HOUR_MS });
  });

  it('draws hours up to 2 days, days beyond', () => {
    expect(insightsRange(NOW - 2 * DAY_MS, NOW, NOW)).toMatchObject({ bucketMs: HOUR_MS });
    expect(insightsRange(NOW - 2 * DAY_MS - 1, NOW, NOW)).toMatchObject({ bucketMs: DAY_MS });
  });

  it('refuses an empty or reversed range and one over 366 days', () => {
    expect(insightsRange(NOW, NOW, NOW)).toEqual({ error: 'from must be before to' });
    expect(insightsRange(NOW + 1, NOW, NOW)).toEqual({ error: 'from must be before to' });
    expect(insightsRange(NOW - 366 * DAY_MS, NOW, NOW)).not.toHaveProperty('error');
    expect(insightsRange(NOW - 366 * DAY_MS - 1, NOW, NOW)).toEqual({ error: 'The range may span at most 366 days' });
  });
});

describe('bucketStarts', () => {
  it('lists every UTC bucket the range touches, the first one aligned', () => {
    const from = Date.UTC(2026, 5, 15, 10, 20);
    expect(bucketStarts({ from, to: from + 2 * HOUR_MS, bucketMs: HOUR_MS })).toEqual([
      Date.UTC(2026, 5, 15, 10),
      Date.UTC(2026, 5, 15, 11),
      Date.UTC(2026, 5, 15, 12),
    ]);
    expect(bucketStarts({ from: Date.UTC(2026, 5, 1), to: Date.UTC(2026, 5, 4), bucketMs: DAY_MS })).toHaveLength(3);
  });
});
