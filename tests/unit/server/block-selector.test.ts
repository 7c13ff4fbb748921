import { describe, expect, it } from 'vitest';
import { blockSelector, judgeElement, rootAncestry, type SerialisedElement } from '../../../server/ingest/block-selector.js';

// Ingest's reading of "Elements Never Recorded" on rrweb's serialised elements.

/** Whether the last element of a chain (outermost first) is blocked by the selector. */
function blocked(selector: string, chain: SerialisedElement[]): boolean {
  const compiled = blockSelector(selector);
  let ancestry = rootAncestry(compiled);
  let result = false;
  for (const element of chain) {
    const judged = judgeElement(compiled, element, ancestry);
    result = judged.blocked;
    ancestry = judged.children;
  }
  return result;
}

const el = (tagName: string, attributes: Record<string, string> = {}): SerialisedElement => ({ tagName, attributes });

describe('the block selector ingest judges', () => {
  it('matches tags, ids, classes and attributes, with descendant and child combinators', () => {
    expect(blocked('.secret', [el('div', { class: 'a secret b' })])).toBe(true);
    expect(blocked('.secret', [el('div', { class: 'secretive' })])).toBe(false);
    expect(blocked('DIV#pay.x', [el('div', { id: 'pay', class: 'x' })])).toBe(true);
    expect(blocked('[data-private]', [el('p', { 'data-private': '' })])).toBe(true);
    expect(blocked('input[name="card" i]', [el('input', { name: 'CARD' })])).toBe(true);
    expect(blocked('a[href^=https][href$=".pdf"]', [el('a', { href: 'https://x/y.pdf' })])).toBe(true);
    expect(blocked('[lang|=en]', [el('p', { lang: 'en-GB' })])).toBe(true);
    expect(blocked('[class~=b]', [el('p', { class: 'a b' })])).toBe(true);
    expect(blocked('[title*=card]', [el('p', { title: 'no' })])).toBe(false);
    expect(blocked('form .card', [el('form'), el('div'), el('span', { class: 'card' })])).toBe(true);
    expect(blocked('form > .card', [el('form'), el('div'), el('span', { class: 'card' })])).toBe(false);
    expect(blocked('form>div > .card', [el('form'), el('div'), el('span', { class: 'card' })])).toBe(true);
    expect(blocked('.a .b', [el('p', { class: 'b' })])).toBe(false);
  });

  it('leaves the parts it cannot read to the tracker and still judges the others', () => {
    expect(blocked('li:nth-child(2), .secret', [el('p', { class: 'secret' })])).toBe(true);
    expect(blocked('li:nth-child(2)', [el('li')])).toBe(false);
    expect(blocked('a + b, a ~ b, .x\\:y', [el('b')])).toBe(false);
  });

  it('judges a long selector over a deep page in linear time', () => {
    const selector = Array.from({ length: 300 }, () => 'div').join(' ') + ' .never';
    const compiled = blockSelector(selector);
    let ancestry = rootAncestry(compiled);
    const started = performance.now();
    for (let depth = 0; depth < 1000; depth++) ancestry = judgeElement(compiled, el('div'), ancestry).children;
    expect(judgeElement(compiled, el('p', { class: 'never' }), ancestry).blocked).toBe(true);
    // Generous: a backtracking matcher takes forever here; this takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
