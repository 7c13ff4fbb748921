// The heatmap's elements named for its table, tooltip and clickers: the name the visitor read
// (the tracker's text, else the rebuilt page's own words or kind), and where one "Add to cart"
// is when others share its name ("Kettle"), by the shared rule (common/element-names.ts) read
// on the page the heat is drawn on.
import type { Heatmap } from '../../../common/api/heatmaps.js';
import { nameWithPlace, placeOf, readableName, selectorName, shorten, tellApart, wordsOf, type NodeReader } from '../../../common/element-names.js';

const domReader: NodeReader<Node> = {
  tag: (node) => (node.nodeType === Node.ELEMENT_NODE ? (node as Element).localName : null),
  attr: (node, name) => (node.nodeType === Node.ELEMENT_NODE ? ((node as Element).getAttribute(name) ?? '') : ''),
  text: (node) => (node.nodeType === Node.TEXT_NODE ? (node.nodeValue ?? '') : ''),
  parent: (node) => node.parentElement,
  children: (node) => Array.from(node.childNodes),
};

function find(doc: Document | null, selector: string): Element | null {
  try {
    return doc?.querySelector(selector) ?? null;
  } catch {
    return null; // a selector the rebuilt page cannot read
  }
}

/** Page order: found elements as the page has them, the rest after, by selector. */
function pageOrder(a: { selector: string; found: Element | null }, b: { selector: string; found: Element | null }): number {
  if (a.found && b.found) return a.found.compareDocumentPosition(b.found) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  if (a.found || b.found) return a.found ? -1 : 1;
  return a.selector.localeCompare(b.selector);
}

/** Each element's label by selector: "Add to cart (Kettle)", "Button (Newsletter)", "Add to cart (2nd of 3)". */
export function elementLabels(elements: Heatmap['elements'], doc: Document | null): Map<string, string> {
  const named = elements
    .map(({ selector, text }) => {
      const found = find(doc, selector);
      const fromPath = selectorName(selector);
      const words = shorten(text) || (found ? wordsOf(domReader, found) : '');
      const name = words || (found && readableName(domReader, found)) || fromPath.name;
      return { key: selector, selector, found, name, place: found ? placeOf(domReader, found) : fromPath.place, placed: !words };
    })
    .sort(pageOrder);
  const where = tellApart(named);
  return new Map(named.map((e) => [e.key, nameWithPlace(e.name, where.get(e.key))]));
}
