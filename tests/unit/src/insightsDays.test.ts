import { describe, expect, it } from 'vitest';
import { DEFAULT_DAYS, daysInUrl } from '../../../src/api/insights.js';
import { DEFAULT_INSIGHTS_DAYS, insightsRange, DAY_MS } from '../../../common/insights.js';

// The 30-day default is one value: the server's range when none is asked for, and the range the
// insights, funnels and heatmaps screens show (and leave out of their URL) when it names none.

describe('the default range', () => {
  it("is the server's default on every screen, and left out of the URL", () => {
    expect(DEFAULT_DAYS).toBe(DEFAULT_INSIGHTS_DAYS);
    const now = 100 * DAY_MS;
    expect(insightsRange(undefined, undefined, now)).toMatchObject({ from: now - DEFAULT_DAYS * DAY_MS, to: now });
    expect(daysInUrl(String(DEFAULT_DAYS))).toEqual({});
  });

  it('keeps an offered range in the URL and drops anything else', () => {
    expect([daysInUrl('7'), daysInUrl(90), daysInUrl('5'), daysInUrl(undefined), daysInUrl('abc')]).toEqual([{ days: 7 }, { days: 90 }, {}, {}, {}]);
  });
});
