import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_PATH, MAX_PATTERN_CHARS, MAX_PATTERN_STARS, pageMatches, pagePattern, patternFlaw, patternsFlaw } from '../../../common/page-pattern.js';
import { pageUnder } from '../../../common/heatmaps.js';
import { pageRecorded } from '../../../common/recording-rules.js';
import { stepMatcher } from '../../../common/funnels.js';
import { patternAndPath } from '../../helpers/page-patterns.js';

/** The language by its definition, character by character, as a table (pattern prefix × path prefix): slow and plainly right. */
function reference(pattern: string, fullPath: string): boolean {
  const p = [...pattern.split(/[?#]/)[0]];
  const s = [...fullPath.slice(0, MAX_PAGE_PATH)];
  let row = Array.from({ length: s.length + 1 }, (_, j) => j === 0);
  for (const c of p) {
    const next = [c === '*' && row[0]];
    for (let j = 1; j <= s.length; j++) next[j] = c === '*' ? row[j] || next[j - 1] : row[j - 1] && s[j - 1] === c;
    row = next;
  }
  return row[s.length];
}

describe('page patterns', () => {
  it('match a path whole, case and all', () => {
    expect([pageMatches('/cart', '/cart'), pageMatches('/cart', '/cart/'), pageMatches('/cart', '/Cart')]).toEqual([true, false, false]);
  });

  it('take * for any run of characters, / too, or none', () => {
    expect(['/product/mug', '/product/', '/products'].map((path) => pageMatches('/product/*', path))).toEqual([true, true, false]);
    expect(['/a/b/edit', '/edit'].map((path) => pageMatches('/*/edit', path))).toEqual([true, false]);
    expect(['/aa', '/a'].map((path) => pageMatches('*a*a*', path))).toEqual([true, false]);
    expect(['/abba', '/abxba', '/aba'].map((path) => pageMatches('/ab*ba', path))).toEqual([true, true, false]);
  });

  it('take every other character for itself, and are read up to a query or fragment', () => {
    expect([pageMatches('/a.b', '/aXb'), pageMatches('/a(b)[c]%_\\', '/a(b)[c]%_\\')]).toEqual([false, true]);
    expect([pageMatches('/cart?step=2', '/cart'), pageMatches('/cart#top', '/cart')]).toEqual([true, true]);
  });

  it('judge a path by its first MAX_PAGE_PATH characters', () => {
    const long = `/${'x'.repeat(MAX_PAGE_PATH)}`;
    expect(pageMatches(long.slice(0, MAX_PAGE_PATH), long)).toBe(true);
    expect(pageMatches('*y', `${long}y`)).toBe(false);
  });

  it('agree with the definition on any pattern and path', () => {
    fc.assert(
      fc.property(patternAndPath, ([pattern, path]) => pagePattern(pattern)(path) === reference(pattern, path)),
      { numRuns: 5000 },
    );
  });

  it('never hold the thread: 40 stars against a 10,000-character path, and the capped worst against the longest kept path', () => {
    const started = performance.now();
    expect(pageMatches(`/${'*a'.repeat(40)}*b`, `/${'a'.repeat(10_000)}`)).toBe(false);
    // The old regular expression never returned on this one (ISSUE-34).
    const capped = `/${'*a'.repeat(MAX_PATTERN_STARS - 1)}*b`;
    expect(patternFlaw(capped)).toBeNull();
    expect(pageMatches(capped, `/${'a'.repeat(MAX_PAGE_PATH)}`)).toBe(false);
    const runs = `/${Array.from({ length: MAX_PATTERN_STARS }, () => `*${'a'.repeat(16)}`).join('')}b`;
    expect(pageMatches(runs, `/${'a'.repeat(MAX_PAGE_PATH)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('are the one matcher of recorded pages, heatmap pages and funnel page steps', () => {
    const pattern = '/shop/*/item';
    for (const path of ['/shop/a/b/item', '/shop/item', '/shop//item']) {
      const fits = reference(pattern, path);
      expect(pageRecorded(path, { include: [pattern] })).toBe(fits);
      expect(pageUnder([pattern])(path) === pattern).toBe(fits);
      expect(stepMatcher({ page: pattern })({ kind: 'page', value: path, at: 0 })).toBe(fits);
    }
  });
});

describe('what an owner may save as a page pattern', () => {
  it('a path from / (or *), within the caps, with no query, fragment or spaces', () => {
    expect(patternFlaw('/product/*')).toBeNull();
    expect(patternFlaw('*/edit')).toBeNull();
    expect(patternFlaw('product/*')).toBe('A page pattern starts with / (or *)');
    expect(patternFlaw(`/${'x'.repeat(MAX_PATTERN_CHARS)}`)).toBe(`A page pattern has at most ${MAX_PATTERN_CHARS} characters`);
    expect(patternFlaw(`/${'*'.repeat(MAX_PATTERN_STARS)}`)).toBeNull();
    expect(patternFlaw(`/${'*a'.repeat(MAX_PATTERN_STARS + 1)}`)).toBe(`A page pattern has at most ${MAX_PATTERN_STARS} stars (*)`);
    expect(patternFlaw('/p?q=1')).toBe('A page pattern is a path: no query, fragment or spaces');
    expect(patternFlaw('/a b')).toBe('A page pattern is a path: no query, fragment or spaces');
    expect(patternsFlaw(['/ok', 'bad'])).toBe('A page pattern starts with / (or *): bad');
    expect(patternsFlaw(['/ok'])).toBeNull();
  });
});
