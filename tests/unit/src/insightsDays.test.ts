import { describe, expect, it } from 'vitest';
import { DEFAULT_DAYS, daysOf } from '../../../src/api/insights.js';
import { DEFAULT_INSIGHTS_DAYS, insightsRange, DAY_MS } from '../../../common/insights.js';

// The 30-day default is one value: the server's range when none is asked for, and the range the
// insights, funnels and heatmaps screens show (and leave out of their URL) when it names none.

describe('the default range', () => {
  it("is the server's default on every screen, and left out of the URL", () => {
    expect(DEFAULT_DAYS).toBe(DEFAULT_INSIGHTS_DAYS);
    const now = 100 * DAY_MS;
    expect(insightsRange(undefined, undefined, now)).toMatchObject({ from: now - DEFAULT_DAYS * DAY_MS, to: now });
    expect(daysOf(undefined)).toBe(DEFAULT_DAYS);
  });

  it('keeps an offered range from the URL and drops anything else to the default', () => {
    expect([daysOf('7'), daysOf(90), daysOf('5'), daysOf(undefined), daysOf('abc')]).toEqual([7, 90, DEFAULT_DAYS, DEFAULT_DAYS, DEFAULT_DAYS]);
  });
});
