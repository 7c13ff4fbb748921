import { describe, expect, it } from 'vitest';
import { visitsOfBatch } from '../../../server/funnels/visits.js';
import type { ClickRecord } from '../../../server/heatmaps/records.js';

const click = (t: number, s: string, text: string): ClickRecord => ({ kind: 'click', t, p: '/', s, text, fx: 0, fy: 0, x: 0, y: 0, w: 1, h: 1 });

describe('visitsOfBatch', () => {
  it("takes a batch's pages, clicks and custom events in time order, numbered after the batch's seq", () => {
    const visits = visitsOfBatch({
      seq: 3,
      moments: [
        { kind: 'page', t: 100, path: '/' },
        { kind: 'input', t: 150 },
        { kind: 'event', t: 300, name: 'checkout' },
        { kind: 'page', t: 400, path: '/cart' },
      ],
      heat: [click(200, '#add', 'Add to cart'), { kind: 'scroll', t: 250, p: '/', d: 50, w: 1, h: 1, view: true }],
    });
    expect(visits).toEqual([
      { kind: 'page', value: '/', text: '', at: 100, seq: 3072 },
      { kind: 'click', value: '#add', text: 'Add to cart', at: 200, seq: 3073 },
      { kind: 'event', value: 'checkout', text: '', at: 300, seq: 3074 },
      { kind: 'page', value: '/cart', text: '', at: 400, seq: 3075 },
    ]);
  });

  it('puts a page first among visits of its millisecond, and keeps at most 1024 visits of a batch', () => {
    const visits = visitsOfBatch({ seq: 0, moments: [{ kind: 'page', t: 5, path: '/' }], heat: [click(5, '#a', '')] });
    expect(visits.map((v) => v.kind)).toEqual(['page', 'click']);
    const many = visitsOfBatch({ seq: 0, moments: [], heat: Array.from({ length: 2000 }, (_, i) => click(i, '#a', '')) });
    expect(many).toHaveLength(1024);
    expect(many.at(-1)?.seq).toBe(1023);
  });
});
