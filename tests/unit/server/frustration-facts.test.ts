import { describe, expect, it } from 'vitest';
import { emptyFacts, factMoments, foldFacts, sessionFacts, type SessionFacts } from '../../../common/session-facts.js';
import { carriedFacts, readCarried } from '../../../common/carried-facts.js';

// Quick backs and excessive scrolling (common/session-facts.ts), on events in rrweb's own shapes.
const T = 1_750_000_000_000;
const meta = (t: number, path: string) => ({ type: 4, data: { href: `https://shop.example${path}?q=1`, width: 1280, height: 800 }, timestamp: T + t });
const full = (t: number) => ({ type: 2, data: { node: { type: 0, id: 1, childNodes: [] }, initialOffset: { left: 0, top: 0 } }, timestamp: T + t });
const scroll = (t: number, y: number, id = 1) => ({ type: 3, data: { source: 3, id, x: 0, y }, timestamp: T + t });
/** A page load as the tracker records it: Meta, then the full snapshot. */
const load = (t: number, path: string) => [meta(t, path), full(t + 1)];

const facts = (events: object[]) => sessionFacts(events as never).facts;

/** The events folded a batch at a time, carrying only what the session row carries. */
function inBatches(batches: object[][]): SessionFacts {
  let state = emptyFacts();
  for (const batch of batches) state = foldFacts({ ...state, ...readCarried(carriedFacts(state)) }, factMoments(batch as never));
  return state;
}

/** Scrolls to each y in turn, `every` ms apart, from `t`. */
const scrollsTo = (t: number, ys: number[], every = 300, id = 1) => ys.map((y, i) => scroll(t + i * every, y, id));

describe('quick backs (back on a page within 5 s of leaving it)', () => {
  it.each([
    ['A → B → A within 5 s', [...load(0, '/product'), ...load(10_000, '/cart'), ...load(13_000, '/product')], 1],
    ['A → B → A after more than 5 s', [...load(0, '/product'), ...load(10_000, '/cart'), ...load(16_000, '/product')], 0],
    ['A → B → C, no way back', [...load(0, '/'), ...load(1000, '/a'), ...load(2000, '/b')], 0],
    ['a reload and rrweb checkouts of the same page', [...load(0, '/'), ...load(1000, '/'), ...load(2000, '/')], 0],
    ['back and forth twice', [...load(0, '/a'), ...load(1000, '/b'), ...load(2000, '/a'), ...load(3000, '/b')], 2],
  ])('%s', (_, events, count) => {
    expect(facts(events).quickBackCount).toBe(count);
  });
  it('is found when the way back arrives in the next batch', () => {
    const batches = [[...load(0, '/product'), ...load(10_000, '/cart')], [...load(12_500, '/product')]];
    expect(inBatches(batches).quickBackCount).toBe(1);
    expect(carriedFacts(inBatches(batches)).length).toBeLessThan(2000);
  });
});

describe('excessive scrolling (4 reversals of 200 px or more within 10 s)', () => {
  const upAndDown = [0, 400, 800, 300, 900, 200, 800, 100];
  it('counts a burst of scrolling back and forth once', () => {
    expect(facts([...load(0, '/'), ...scrollsTo(1000, upAndDown)]).excessiveScrollCount).toBe(1);
  });
  it.each([
    ['reading down the page', [0, 300, 600, 900, 1200, 1500, 1800]],
    ['jiggles under 200 px', [0, 400, 300, 400, 300, 400, 300, 400, 300]],
    ['three reversals only', [0, 400, 100, 500, 100]],
  ])('does not count %s', (_, ys) => {
    expect(facts([...load(0, '/'), ...scrollsTo(1000, ys)]).excessiveScrollCount).toBe(0);
  });
  it('does not count reversals spread over more than 10 s', () => {
    expect(facts([...load(0, '/'), ...scrollsTo(1000, upAndDown, 4000)]).excessiveScrollCount).toBe(0);
  });
  it('counts a second burst again', () => {
    expect(facts([...load(0, '/'), ...scrollsTo(1000, upAndDown), ...scrollsTo(30_000, upAndDown)]).excessiveScrollCount).toBe(2);
  });
  it('follows one scrolling element: another one, or another page, starts afresh', () => {
    const mixed = upAndDown.map((y, i) => scroll(1000 + i * 300, y, i % 2 ? 1 : 42));
    expect(facts([...load(0, '/'), ...mixed]).excessiveScrollCount).toBe(0);
    const twoPages = [...load(0, '/a'), ...scrollsTo(1000, upAndDown.slice(0, 5)), ...load(2600, '/b'), ...scrollsTo(2700, [900, 200, 800, 100])];
    expect(facts(twoPages).excessiveScrollCount).toBe(0);
  });
  it('is found when the burst is split across two batches', () => {
    const events = [...load(0, '/'), ...scrollsTo(1000, upAndDown)];
    for (const at of [3, 5, 7, 9]) {
      expect(inBatches([events.slice(0, at), events.slice(at)]).excessiveScrollCount).toBe(1);
    }
  });
});

describe('marks for the replay', () => {
  const marked = (events: object[], kind: string) =>
    sessionFacts(events as never)
      .marks.filter((mark) => mark.kind === kind)
      .map((mark) => mark.t - T);
  it('marks a quick back at the page it came back to, and no other load', () => {
    const events = [...load(0, '/product'), ...load(10_000, '/cart'), ...load(13_000, '/product'), ...load(30_000, '/cart'), ...load(40_000, '/product')];
    expect(marked(events, 'quickBack')).toEqual([13_000]);
  });
  it('marks a burst of excessive scrolling at the scroll that completed it, once per burst', () => {
    const events = [...load(0, '/'), ...scrollsTo(1000, [0, 400, 800, 300, 900, 200, 800, 100]), ...scrollsTo(30_000, [0, 400, 100, 500, 100], 300, 2)];
    // Reversals at 300, 900, 200 and 800 px: the fourth is the 7th scroll (1000 + 6 × 300 ms).
    expect(marked(events, 'scrolling')).toEqual([2800]);
  });
});
