import { describe, expect, it } from 'vitest';
import { brokenBudgets, budgetOf, exact, keptNotes, ratio, runsFor, stats, table, type Row } from '../../../bench/lib.js';

const row = (ours: number[], baseline: number[] | undefined, budget?: number, budgetOn?: 'value' | 'ratio'): Row => ({
  group: 'Figure',
  name: 'measure',
  unit: 'ms',
  ours: stats(ours),
  ...(baseline ? { baseline: { name: 'baseline', stats: stats(baseline) } } : {}),
  ...(budget === undefined ? {} : { budget, budgetOn }),
});

describe('the bench’s figures', () => {
  it('are medians with min and max, of odd and even counts of runs', () => {
    expect(stats([5, 1, 3, 9, 7])).toEqual({ median: 5, min: 1, max: 9, runs: 5 });
    expect(stats([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, runs: 4 });
    expect(() => stats([])).toThrow('no samples');
  });

  it('compare with the baseline as the ratio of medians', () => {
    expect(ratio(row([10, 12, 14], [4, 6, 8]))).toBe(2);
    expect(ratio(row([10], undefined))).toBeUndefined();
  });

  it('say which budget broke, on a value or on the ratio, and pass one met exactly', () => {
    expect(brokenBudgets([row([26.1], undefined, 26, 'value')])).toEqual(['Figure / measure: 26.1 ms exceeds the budget of 26.0 ms']);
    expect(brokenBudgets([row([106, 106, 106], [100, 100, 100], 1.05, 'ratio')])).toEqual(['Figure / measure: 1.06× exceeds the budget of 1.05×']);
    expect(brokenBudgets([row([105], [100], 1.05, 'ratio'), row([26], undefined, 26), row([999], [1])])).toEqual([]);
  });

  it('print as a Markdown table, marking each budget met or broken', () => {
    const lines = table([row([3, 1, 2], [1, 1, 1], 1.5, 'ratio'), { ...row([1], undefined), ours: exact(0.56), budget: 1.5 }]).split('\n');
    expect(lines[0]).toBe('| figure | measure | unit | ours: median (min–max) | baseline | baseline: median (min–max) | ratio | budget | runs |');
    expect(lines[2]).toBe('| Figure | measure | ms | 2.00 (1.00–3.00) | baseline | 1.00 | 2.00× | ≤ 1.50× ✗ | 3 |');
    expect(lines[3]).toBe('| Figure | measure | ms | 0.56 |  |  |  | ≤ 1.50 ✓ | 5 |');
  });
});

describe('bench/results.md’s notes', () => {
  it('are kept from the previous results, from their heading on, when a full run rewrites the table', () => {
    const previous = '# Tapedeck benchmark results\n\n| old table |\n\n## Notes\n\n- 2026-11-25: by hand.\n\n### More\n\nkept too\n';
    expect(keptNotes(previous)).toBe('## Notes\n\n- 2026-11-25: by hand.\n\n### More\n\nkept too\n');
  });

  it('start as an empty section when the previous results had none', () => {
    expect(keptNotes('# Tapedeck benchmark results\n\n| old table |\n')).toMatch(/^## Notes\n\n.+keeps this section\.\n$/);
    expect(keptNotes('')).toMatch(/^## Notes\n/);
  });
});

describe('--quick', () => {
  it('takes fewer runs than a full run, which keeps at least 5', () => {
    expect(runsFor(false)).toBeGreaterThanOrEqual(5);
    expect(runsFor(true)).toBeLessThan(runsFor(false));
  });

  it('shows a budget set on the full workload as not judged, and does not report its breach', () => {
    const quickRow = { ...row([30], [1]), ...budgetOf({ quick: true }, 5, 'ratio') };
    expect(brokenBudgets([quickRow])).toEqual([]);
    expect(table([quickRow]).split('\n')[2]).toContain('| ≤ 5.00× (quick: not judged) |');
    const fullRow = { ...row([30], [1]), ...budgetOf({ quick: false }, 5, 'ratio') };
    expect(brokenBudgets([fullRow])).toEqual(['Figure / measure: 30.0× exceeds the budget of 5.00×']);
  });
});
