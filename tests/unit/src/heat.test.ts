import { describe, expect, it } from 'vitest';
import { heatColour, heatPoints, layerCount } from '../../../src/lib/heat.js';
import type { Heatmap } from '../../../common/api/heatmaps.js';

const counts = (clicks: number, rageClicks = 0, deadClicks = 0, errorClicks = 0) => ({ clicks, rageClicks, deadClicks, errorClicks });
const heatmap = (over: Partial<Heatmap> = {}): Heatmap => ({
  path: '/',
  device: 'desktop',
  from: 0,
  to: 1,
  views: 1,
  sessions: 1,
  ...counts(10, 3),
  layerSessions: { rage: 1, dead: 0, error: 0 },
  averageFold: 50,
  elements: [{ selector: '#add', text: 'Add to cart', ...counts(6, 3), fx: 0.5, fy: 0.25 }],
  binColumns: 40,
  binRowPx: 40,
  bins: [{ x: 10, y: 2, ...counts(4) }],
  scroll: [],
  sampled: false,
  snapshot: null,
  ...over,
});
const box = { element: heatmap().elements[0], x: 100, y: 200, width: 200, height: 40 };

describe('heat points', () => {
  it("puts an element found in the page at its clicks' average place in its box", () => {
    expect(heatPoints(heatmap(), 'rage', [box], 1280)).toEqual([{ x: 200, y: 210, weight: 3 }]);
  });
  it('draws the clicks of elements not found from the bins, in their share', () => {
    const points = heatPoints(heatmap(), 'all', [box], 1280);
    expect(points[0]).toEqual({ x: 200, y: 210, weight: 6 });
    expect(points[1]).toEqual({ x: (10.5 / 40) * 1280, y: 2.5 * 40, weight: 4 * 0.4 });
  });
  it('falls back to the bins alone when no element is found', () => {
    expect(heatPoints(heatmap(), 'all', [], 1000)).toEqual([{ x: 262.5, y: 100, weight: 4 }]);
  });
  it('counts by layer', () => {
    expect(['all', 'rage', 'dead', 'error'].map((l) => layerCount(counts(9, 3, 2, 1), l as never))).toEqual([9, 3, 2, 1]);
  });
  it('colours from blue (little) to red (most)', () => {
    expect(heatColour(0)).toEqual([0, 0, 255]);
    expect(heatColour(1)).toEqual([255, 0, 0]);
  });
});
