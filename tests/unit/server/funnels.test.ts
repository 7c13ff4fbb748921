import { describe, expect, it } from 'vitest';
import { funnelSteps, type FunnelStep, type Visit } from '../../../common/funnels.js';
import { progress } from '../../../server/funnels/progress.js';

const page = (value: string, at: number): Visit => ({ kind: 'page', value, at });
const STEPS: FunnelStep[] = [{ page: '/' }, { page: '/product/*' }, { page: '/cart' }];
const MINUTE = 60_000;

describe('progress', () => {
  it('counts the steps done in order', () => {
    expect(progress([page('/', 0), page('/product/mug', MINUTE), page('/cart', 2 * MINUTE)], STEPS, 3_600_000)).toEqual({
      reached: 3,
      times: [0, MINUTE, 2 * MINUTE],
    });
    expect(progress([page('/', 0), page('/product/mug', MINUTE)], STEPS, 3_600_000).reached).toBe(2);
    expect(progress([page('/product/mug', 0), page('/cart', MINUTE)], STEPS, 3_600_000).reached).toBe(0);
  });

  it('skips pages between the steps, but not steps out of order', () => {
    const visits = [page('/', 0), page('/about', 1), page('/cart', 2), page('/product/a', 3), page('/help', 4)];
    expect(progress(visits, STEPS, 3_600_000)).toEqual({ reached: 2, times: [0, 3] });
  });

  it('counts a step only within the window from the first', () => {
    const visits = [page('/', 0), page('/product/mug', MINUTE), page('/cart', 20 * MINUTE)];
    expect(progress(visits, STEPS, 10 * MINUTE).reached).toBe(2);
  });

  it('starts again from a later first step when that gets further within the window', () => {
    const visits = [page('/', 0), page('/', 30 * MINUTE), page('/product/mug', 31 * MINUTE), page('/cart', 32 * MINUTE)];
    expect(progress(visits, STEPS, 10 * MINUTE)).toEqual({ reached: 3, times: [30 * MINUTE, 31 * MINUTE, 32 * MINUTE] });
  });

  it('matches a click or event step only to that kind of visit', () => {
    const steps: FunnelStep[] = [{ page: '/' }, { click: '#add' }, { event: 'checkout' }];
    const visits: Visit[] = [
      page('/', 0),
      { kind: 'page', value: '#add', at: 1 },
      { kind: 'click', value: '#add', at: 2 },
      { kind: 'event', value: 'checkout', at: 3 },
    ];
    expect(progress(visits, steps, MINUTE)).toEqual({ reached: 3, times: [0, 2, 3] });
  });
});

describe('funnelSteps', () => {
  it('counts each step, its conversion from the first, its drop-off and median time from the step before', () => {
    const result = funnelSteps(
      [
        { reached: 3, times: [0, 10_000, 40_000] },
        { reached: 2, times: [0, 20_000] },
        { reached: 1, times: [0] },
        { reached: 0, times: [] },
      ],
      3,
    );
    expect(result).toEqual([
      { sessions: 3, conversion: 1, droppedOff: 0, medianMsFromPrevious: null },
      { sessions: 2, conversion: 0.6667, droppedOff: 1, medianMsFromPrevious: 15_000 },
      { sessions: 1, conversion: 0.3333, droppedOff: 1, medianMsFromPrevious: 30_000 },
    ]);
  });

  it('answers zeros for no sessions', () => {
    expect(funnelSteps([], 2)).toEqual([
      { sessions: 0, conversion: 0, droppedOff: 0, medianMsFromPrevious: null },
      { sessions: 0, conversion: 0, droppedOff: 0, medianMsFromPrevious: null },
    ]);
  });
});

describe('click and event steps', () => {
  const click = (value: string, text: string, at: number): Visit => ({ kind: 'click', value, text, at });
  const event = (value: string, at: number): Visit => ({ kind: 'event', value, at });
  const BUY: FunnelStep[] = [{ page: '/product/*' }, { click: '#add' }, { event: 'checkout' }];

  it('counts a page, a click and an event done in that order', () => {
    const visits = [page('/product/mug', 0), click('#add', 'Add to cart', MINUTE), event('checkout', 2 * MINUTE)];
    expect(progress(visits, BUY, 3_600_000)).toEqual({ reached: 3, times: [0, MINUTE, 2 * MINUTE] });
    expect(progress([page('/product/mug', 0), event('checkout', MINUTE), click('#add', '', 2 * MINUTE)], BUY, 3_600_000).reached).toBe(2);
  });

  it("takes a click step for the element's selector path or its text, whole and case-sensitive", () => {
    const byText: FunnelStep[] = [{ page: '/' }, { click: 'Add to cart' }];
    const bySelector: FunnelStep[] = [{ page: '/' }, { click: '#add' }];
    expect(progress([page('/', 0), click('main>button:nth-of-type(2)', 'Add to cart', 1)], byText, MINUTE).reached).toBe(2);
    expect(progress([page('/', 0), click('#add', 'Add', 1)], bySelector, MINUTE).reached).toBe(2);
    expect(progress([page('/', 0), click('#add', 'add to cart', 1)], byText, MINUTE).reached).toBe(1);
    expect(progress([page('/', 0), click('#add', 'Add to cart now', 1)], byText, MINUTE).reached).toBe(1);
    expect(progress([page('/', 0), click('#add-more', 'More', 1)], bySelector, MINUTE).reached).toBe(1);
    expect(progress([page('/', 0), click('div>#add', '#add', 1)], bySelector, MINUTE).reached).toBe(2);
  });

  it('tells kinds apart: a page named like the event, or an event named like the click, is no step', () => {
    const steps: FunnelStep[] = [{ event: 'checkout' }, { click: '#add' }];
    expect(progress([page('checkout', 0), event('#add', 1)], steps, MINUTE).reached).toBe(0);
    expect(progress([event('checkout', 0), event('#add', 1)], steps, MINUTE).reached).toBe(1);
  });

  it('counts a click or event step only within the window from the first step', () => {
    const visits = [page('/product/mug', 0), click('#add', '', MINUTE), event('checkout', 20 * MINUTE)];
    expect(progress(visits, BUY, 10 * MINUTE).reached).toBe(2);
  });
});
