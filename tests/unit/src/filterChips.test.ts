import { describe, expect, it } from 'vitest';
import { filterChips, withoutChip } from '../../../src/lib/filterChips.js';
import { sessionCountText } from '../../../src/components/ActiveFilters.js';
import type { Funnel } from '../../../common/api/funnels.js';

const funnel: Funnel = {
  id: 'f1',
  name: 'Kettle to cart',
  steps: [{ page: '/' }, { page: '/product/*' }, { click: 'Add to cart' }],
  withinMs: 1,
  createdAt: 0,
  updatedAt: 0,
};
const texts = (chips: ReturnType<typeof filterChips>) => chips.map((chip) => (chip.value === undefined ? chip.name : `${chip.name}: ${chip.value}`));

describe("the sessions list's filter chips", () => {
  it('name each active filter and its value, the sort none', () => {
    const from = new Date(2026, 11, 1).getTime();
    const to = new Date(2026, 11, 8).getTime(); // the end of 7 December, exclusive
    const chips = filterChips({
      sort: 'longest',
      hasErrors: true,
      starred: true,
      from,
      to,
      minDuration: 60_000,
      url: '/checkout',
      trait: 'plan:pro',
      device: 'mobile',
    });
    expect(texts(chips)).toEqual([
      'Has errors',
      'Starred',
      'From: 2026-12-01',
      'To: 2026-12-07',
      'Min duration: 60s',
      'Visited page: /checkout',
      'Trait: plan:pro',
      'Device: Mobile',
    ]);
  });

  it('name the funnel step by its number, what it is and the funnel, and the outcome', () => {
    expect(texts(filterChips({ funnel: 'f1', step: 2 }, funnel))).toEqual(['Funnel step: 2 · /product/* (Kettle to cart)']);
    expect(texts(filterChips({ funnel: 'f1', step: 3, outcome: 'dropped' }, funnel))).toEqual([
      'Funnel step: 3 · click: Add to cart (Kettle to cart), dropped off after',
    ]);
    expect(texts(filterChips({ funnel: 'f1', outcome: 'converted' }, funnel))).toEqual(['Funnel: Kettle to cart, converted']);
    // The funnel not loaded yet: the step's number alone.
    expect(texts(filterChips({ funnel: 'f1', step: 2 }))).toEqual(['Funnel step: 2 (a funnel)']);
  });

  it("take away only their own filter (the funnel's step and outcome with it)", () => {
    const filters = { funnel: 'f1', step: 2, outcome: 'dropped' as const, hasErrors: true as const, sort: 'errors' as const };
    const [errors, step] = filterChips(filters, funnel);
    expect(withoutChip(filters, errors)).toEqual({ funnel: 'f1', step: 2, outcome: 'dropped', sort: 'errors' });
    expect(withoutChip(filters, step)).toEqual({ hasErrors: true, sort: 'errors' });
  });

  it("count a narrowed list against the campaign's sessions", () => {
    expect(sessionCountText(7, 5)).toBe('5 of 7 sessions');
    expect(sessionCountText(1, 1)).toBe('1 of 1 session');
    expect(sessionCountText(20_000, 1001)).toBe('1000+ of 20000 sessions');
  });
});
