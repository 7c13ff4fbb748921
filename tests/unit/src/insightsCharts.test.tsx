import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Insights } from '../../../common/api/insights.js';
import { DAY_MS, HOUR_MS } from '../../../common/insights.js';
import { bucketAt, frustrationSummary, sessionsColumns, sessionsSummary, xRange } from '../../../src/components/insights/chartData.js';
import { useInsightsChart, type ChartSpec } from '../../../src/components/insights/useInsightsChart.js';

// The insights charts apart from uPlot's drawing (jsdom has no canvas): what they are given to
// draw, which bucket a point of the x axis is, and the hook's life: sized to its element, named
// for screen readers, a click handed the bucket, resized with its card, destroyed on unmount.
// The real canvas (click, hover, phone width) is checked in tests/e2e/insights.test.ts.

const plots = vi.hoisted(() => [] as FakePlot[]);
interface FakePlot {
  width: number;
  opts: { width: number; height: number; scales: { x: { range: () => [number, number] } } };
  over: HTMLElement;
  destroyed: boolean;
}

vi.mock('uplot', () => ({
  default: class {
    width: number;
    root = document.createElement('div');
    over = document.createElement('div');
    destroyed = false;
    constructor(
      public opts: FakePlot['opts'],
      _data: unknown,
      el: HTMLElement,
    ) {
      this.width = opts.width;
      this.root.append(document.createElement('canvas'), this.over);
      el.append(this.root);
      plots.push(this as unknown as FakePlot);
    }
    /** A linear x scale over the width, as uPlot's. */
    posToVal(left: number) {
      const [min, max] = this.opts.scales.x.range();
      return min + (left / this.width) * (max - min);
    }
    setSize({ width }: { width: number }) {
      this.width = width;
    }
    destroy() {
      this.destroyed = true;
      this.root.remove();
    }
  },
}));

const observers: { callback: () => void; disconnected: boolean }[] = [];
beforeEach(() => {
  plots.length = 0;
  observers.length = 0;
  vi.stubGlobal(
    'ResizeObserver',
    class {
      entry = { callback: () => {}, disconnected: false };
      constructor(callback: () => void) {
        this.entry.callback = callback;
        observers.push(this.entry);
      }
      observe() {}
      disconnect() {
        this.entry.disconnected = true;
      }
    },
  );
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const start = Date.UTC(2026, 10, 20);
const bucket = (t: number, humans: number, bots: number) => ({
  t,
  humans,
  bots,
  withErrors: 0,
  withFrustration: 0,
  rageClicks: humans,
  deadClicks: 0,
  quickBacks: 0,
  excessiveScrolls: 0,
  errors: bots,
  failedRequests: 0,
});
const insights = {
  from: start,
  to: start + 3 * DAY_MS,
  bucketMs: DAY_MS,
  series: [bucket(start, 2, 1), bucket(start + DAY_MS, 0, 0), bucket(start + 2 * DAY_MS, 4, 3)],
} as Insights;

describe('chart data', () => {
  it('stacks the bars (the whole bar, then the humans) at each bucket’s middle', () => {
    expect(sessionsColumns(insights)).toEqual([
      [start + DAY_MS / 2, start + 1.5 * DAY_MS, start + 2.5 * DAY_MS],
      [3, 0, 7],
      [2, 0, 4],
    ]);
    expect(xRange(insights)).toEqual([start, start + 3 * DAY_MS]);
  });

  it('finds the bucket holding a time, none off the range', () => {
    expect(bucketAt(insights, start)?.t).toBe(start);
    expect(bucketAt(insights, start + DAY_MS - 1)?.t).toBe(start);
    expect(bucketAt(insights, start + 2 * DAY_MS + HOUR_MS)?.t).toBe(start + 2 * DAY_MS);
    expect(bucketAt(insights, start - 1)).toBeNull();
    expect(bucketAt(insights, start + 3 * DAY_MS)).toBeNull();
  });

  it('sums the range up for a screen reader', () => {
    expect(sessionsSummary(insights)).toMatch(
      /^Sessions per day over 3 days: 6 humans and 4 bots in all, the most \(7\) on .+\. "Show as table" lists each day with a link to its sessions\.$/,
    );
    expect(frustrationSummary(insights)).toBe(
      'Frustration per day over 3 days: 6 rage clicks, 0 dead clicks, 0 quick backs, 0 excessive scrolling, 4 errors, 0 failed requests in all. "Show frustration as table" gives the figures.',
    );
  });
});

function Chart({ data, onBucket }: { data: Insights; onBucket: ChartSpec['onBucket'] }) {
  const { ref, hovered } = useInsightsChart(data, { height: 100, series: () => [], data: sessionsColumns(data), label: sessionsSummary(data), onBucket });
  return (
    <div>
      <div ref={ref} />
      <span>{hovered ? 'hovering' : 'not hovering'}</span>
    </div>
  );
}

describe('useInsightsChart', () => {
  it('draws at its element’s width with a named canvas, opens the clicked bucket, follows resizes and is destroyed on unmount', () => {
    const onBucket = vi.fn();
    const { rerender, unmount } = render(<Chart data={insights} onBucket={onBucket} />);
    expect(plots).toHaveLength(1);
    expect(plots[0].opts).toMatchObject({ width: 600, height: 100 });
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(sessionsSummary(insights));
    expect(screen.getByText('not hovering')).toBeTruthy();

    // Three days over 600 px: 450 px is in the third.
    fireEvent.click(plots[0].over, { clientX: 450 });
    expect(onBucket).toHaveBeenCalledWith(insights.series[2]);

    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(350);
    observers[0].callback();
    expect(plots[0].width).toBe(350);

    // New figures: a new chart, the old one gone.
    rerender(<Chart data={{ ...insights, series: insights.series.slice(0, 2) }} onBucket={onBucket} />);
    expect(plots).toHaveLength(2);
    expect(plots[0].destroyed).toBe(true);
    expect(observers[0].disconnected).toBe(true);
    unmount();
    expect(plots[1].destroyed).toBe(true);
    expect(observers[1].disconnected).toBe(true);
  });
});
