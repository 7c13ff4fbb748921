import { describe, expect, it } from 'vitest';
import { emptyFacts, factMoments, foldFacts, keepingMarks, type FactMarks } from '../../../common/session-facts.js';
import { binOf, pageUnder } from '../../../common/heatmaps.js';
import { viewportClass } from '../../../common/devices.js';
import { heatRecords } from '../../../server/heatmaps/records.js';
import { addFed, emptyFed, heatOfBatch, newSessionHeat, type Fed, type FedKey } from '../../../server/heatmaps/fed.js';
import { batchFlaw } from '../../../common/ingest-batch.js';

// Fixtures in the shapes the tracker sends: rrweb's click (source 2, type 2) and, from the
// same DOM event, Tapedeck's click record (tracker/src/heat.ts) a millisecond later.
const T = Date.UTC(2026, 0, 10, 12);
const DAY = Math.floor(T / 86_400_000);
const rrwebClick = (t: number, x = 100, y = 100, id = 7) => ({ type: 3, data: { source: 2, type: 2, id, x, y }, timestamp: T + t });
const mutation = (t: number) => ({ type: 3, data: { source: 0, adds: [], removes: [], texts: [], attributes: [] }, timestamp: T + t });
const move = (t: number) => ({ type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] }, timestamp: T + t });
const record = (t: number, s = '#add', w = 1280, x = 500, y = 300) => ({
  type: 5,
  data: { tag: 'tapedeck/click', payload: { p: '/product/1', s, t: 'Add to cart', fx: 0.5, fy: 0.25, x, y, w, h: 2000 } },
  timestamp: T + t + 1,
});
const scrolled = (t: number, d: number, view = false, w = 1280) => ({
  type: 5,
  data: { tag: 'tapedeck/scroll', payload: { p: '/product/1', d, w, h: 2000, ...(view ? { v: 1 } : {}) } },
  timestamp: T + t,
});
const error = (t: number) => ({ type: 5, data: { tag: 'tapedeck/error', payload: { message: 'boom', source: 'a.js:1', stack: '' } }, timestamp: T + t });

type Event = { type: number; data: object; timestamp: number };

/**
 * Batches of one session through the rules: each folded into the session's facts as the
 * recordings fold it (its marks), then into heat. Its contributions by page, device class and day.
 */
function feed(...batches: Event[][]): Map<string, Fed> {
  const state = newSessionHeat();
  let facts = emptyFacts();
  const fed = new Map<string, Fed>();
  for (const events of batches) {
    const sorted = events.slice().sort((a, b) => a.timestamp - b.timestamp);
    expect(batchFlaw({ sessionId: 'session-0001', seq: 0, events: sorted })).toBeNull();
    const marks: FactMarks = [];
    facts = foldFacts(facts, factMoments(sorted), keepingMarks(marks));
    heatOfBatch(
      state,
      marks,
      heatRecords(sorted),
      (key: FedKey) =>
        fed.get(`${key.path} ${key.device} ${key.day}`) ??
        fed.set(`${key.path} ${key.device} ${key.day}`, emptyFed()).get(`${key.path} ${key.device} ${key.day}`)!,
    );
  }
  return fed;
}

const desktop = (fed: Map<string, Fed>) => fed.get(`/product/1 desktop ${DAY}`)!;

describe('heatmap aggregation rules', () => {
  it('counts a click on its element, with where in it, and in its page-position bin', () => {
    const fed = desktop(feed([rrwebClick(0), record(0), mutation(200)]));
    expect(fed.layers).toEqual([1, 0, 0, 0]);
    expect(fed.elements['#add']).toEqual({ text: 'Add to cart', layers: [1, 0, 0, 0], fx: 500, fy: 250, at: T + 1 });
    expect(fed.bins[String(binOf(500, 300, 1280))]).toEqual([1, 0, 0, 0]);
  });

  it('splits by device class: the same button at 1280, 768 and 390 px', () => {
    const fed = feed([
      rrwebClick(0),
      record(0, '#add', 1280),
      rrwebClick(5000),
      record(5000, '#add', 768),
      rrwebClick(9000),
      record(9000, '#add', 390),
      mutation(9100),
    ]);
    expect([...fed.keys()].sort()).toEqual([`/product/1 desktop ${DAY}`, `/product/1 mobile ${DAY}`, `/product/1 tablet ${DAY}`]);
    expect(['desktop', 'tablet', 'mobile'].map((d) => fed.get(`/product/1 ${d} ${DAY}`)!.elements['#add'].layers[0])).toEqual([1, 1, 1]);
  });

  it('marks the rage click (three within a second, close together) as the session facts do, once per burst', () => {
    const fed = desktop(
      feed([rrwebClick(0), record(0), rrwebClick(200), record(200), rrwebClick(400), record(400), rrwebClick(600), record(600), mutation(700)]),
    );
    expect(fed.layers).toEqual([4, 1, 0, 0]);
    expect(fed.elements['#add'].layers).toEqual([4, 1, 0, 0]);
  });

  it('marks a dead click when the next batch shows the page did nothing for a second', () => {
    const fed = feed([rrwebClick(0, 50, 50, 9), record(0, 'label:nth-of-type(2)')], [move(3000)]);
    expect(desktop(fed).elements['label:nth-of-type(2)'].layers).toEqual([1, 0, 1, 0]);
    expect(desktop(fed).layers).toEqual([1, 0, 1, 0]);
  });

  it('does not mark a click the page answered', () => {
    expect(desktop(feed([rrwebClick(0), record(0), mutation(300)], [move(3000)])).layers).toEqual([1, 0, 0, 0]);
  });

  it('marks clicks followed by an error within 5 s, once each', () => {
    const fed = desktop(
      feed([rrwebClick(0), record(0), mutation(100), rrwebClick(8000, 300, 300), record(8000, '#buy'), mutation(8100), error(9000), error(9500)]),
    );
    expect(fed.elements['#add'].layers[3]).toBe(0);
    expect(fed.elements['#buy'].layers[3]).toBe(1);
    expect(fed.layers[3]).toBe(1);
  });

  it('counts each view once and each tenth of the page it reached', () => {
    const fed = desktop(feed([scrolled(0, 40, true), scrolled(1000, 60)], [scrolled(2000, 100), scrolled(60_000, 30, true)]));
    expect(fed.views).toBe(2);
    expect(fed.fold).toBe(70);
    // First view: 0…100; second view: 0…30.
    expect(fed.scroll).toEqual([2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('takes a contribution off again exactly', () => {
    const one = desktop(feed([rrwebClick(0), record(0), scrolled(0, 50, true), mutation(100)]));
    const total = addFed(addFed(emptyFed(), one), one);
    const back = addFed(total, one, -1);
    expect(back.layers).toEqual(one.layers);
    expect(back.elements['#add'].layers).toEqual([1, 0, 0, 0]);
    expect(back.scroll).toEqual(one.scroll);
  });
});

describe('viewport classes, bins and page patterns', () => {
  it('classes viewports: mobile below 768 px, tablet below 1024 px', () => {
    expect([390, 767, 768, 1023, 1024, 1280].map(viewportClass)).toEqual(['mobile', 'mobile', 'tablet', 'tablet', 'desktop', 'desktop']);
  });
  it('bins clicks by share of the width and 40 px rows, bounded', () => {
    expect(binOf(0, 0, 1000)).toBe(0);
    expect(binOf(999, 41, 1000)).toBe(40 + 39);
    expect(binOf(5000, 1e6, 1000)).toBe(249 * 40 + 39);
  });
  it('groups paths under the first pattern they match', () => {
    expect(pageUnder(['/product/*', '/product/12'])('/product/12')).toBe('/product/*');
    expect(pageUnder(['/product/*'])('/cart')).toBe('/cart');
    expect(pageUnder(['/a?b'])('/a.b')).toBe('/a.b');
  });
});
