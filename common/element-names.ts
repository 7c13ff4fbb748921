// An element named as a person reads it ("Add to cart"), and where it is when its name alone
// does not say which one ("Kettle": the heading of the product card it sits in). One rule for
// the heatmap's Elements table (read from the rebuilt page) and the replay's Activity list (read
// from the recorded page), each through its own view of a page's nodes.

/** How a page's nodes are read: the live DOM, or rrweb's serialized nodes. */
export interface NodeReader<N> {
  /** Lower-case tag name; null for a text node. */
  tag(node: N): string | null;
  /** An attribute's value, '' when absent. */
  attr(node: N, name: string): string;
  /** A text node's text ('' for an element). */
  text(node: N): string;
  parent(node: N): N | null;
  children(node: N): readonly N[];
}

/** Longest name or place shown; how far a page is read, so naming costs little whatever the page. */
export const MAX_NAME = 40;
const MAX_NODES_READ = 200;
const MAX_ANCESTORS = 8;

const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template']);
/** Too large to name or to place by: a click on the page's background says nothing about an element. */
export const PAGE_TAGS = new Set(['html', 'body', 'main', 'head']);
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** What an element with no words is called, by its kind. */
const KIND_NAMES: Record<string, string> = {
  a: 'Link',
  button: 'Button',
  img: 'Image',
  svg: 'Icon',
  input: 'Field',
  textarea: 'Text box',
  select: 'Menu',
  label: 'Label',
  video: 'Video',
};

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Cut to MAX_NAME characters, with an ellipsis when cut. */
export const shorten = (text: string): string => (text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text);

/** The words inside a node (and its images' alt text), reading a bounded number of nodes. */
export function textWithin<N>(read: NodeReader<N>, root: N): string {
  const parts: string[] = [];
  const stack = [root];
  for (let count = 0; stack.length && count < MAX_NODES_READ; count++) {
    const node = stack.pop()!;
    const tag = read.tag(node);
    if (tag && SKIPPED_TAGS.has(tag)) continue;
    const text = read.text(node);
    if (text) parts.push(text);
    if (tag === 'img' && read.attr(node, 'alt')) parts.push(read.attr(node, 'alt'));
    const children = read.children(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return clean(parts.join(' '));
}

/** The element's own words: its label, alt text, button value, text, title or placeholder ('' when none). */
export function wordsOf<N>(read: NodeReader<N>, node: N): string {
  const tag = read.tag(node);
  const type = read.attr(node, 'type').toLowerCase();
  const candidates = [
    () => read.attr(node, 'aria-label'),
    () => (tag === 'img' || type === 'image' ? read.attr(node, 'alt') : ''),
    () => (tag === 'input' && ['button', 'submit', 'reset'].includes(type) ? read.attr(node, 'value') : ''),
    () => textWithin(read, node),
    () => read.attr(node, 'title'),
    () => read.attr(node, 'placeholder'),
  ];
  for (const candidate of candidates) {
    const words = clean(candidate());
    if (words) return shorten(words);
  }
  return '';
}

/** A short name for an element with no words: its kind ("Button"), a link with where it goes ("Link to /cart"); '' for a plain box. */
export function kindName<N>(read: NodeReader<N>, node: N): string {
  const tag = read.tag(node) ?? '';
  const role = read.attr(node, 'role');
  const href = tag === 'a' ? read.attr(node, 'href').replace(/^https?:\/\/[^/]+/, '') : '';
  if (href && !href.startsWith('javascript:')) return shorten(`Link to ${href}`);
  if (role) return role.charAt(0).toUpperCase() + role.slice(1);
  return KIND_NAMES[tag] ?? '';
}

/** The element's readable name: its words, else its kind ('' for a plain box with no words). */
export const readableName = <N>(read: NodeReader<N>, node: N): string => wordsOf(read, node) || kindName(read, node);

/** The first heading's words inside `root` other than inside `skip` (the element itself), read in a bounded walk. */
function headingWithin<N>(read: NodeReader<N>, root: N, skip: N): string {
  const stack = [root];
  for (let count = 0; stack.length && count < MAX_NODES_READ; count++) {
    const node = stack.pop()!;
    if (node === skip) continue;
    const tag = read.tag(node);
    if (tag && (HEADING_TAGS.has(tag) || read.attr(node, 'role') === 'heading')) return textWithin(read, node);
    const children = read.children(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return '';
}

/**
 * Where an element is, as a person reads the page: the nearest container's label (a region or
 * form named "Newsletter") or heading (the product card's "Kettle"), below the page itself; ''
 * when none says it.
 */
export function placeOf<N>(read: NodeReader<N>, node: N): string {
  let inner = node;
  let current = read.parent(node);
  for (let depth = 0; current && depth < MAX_ANCESTORS; depth++) {
    const tag = read.tag(current);
    if (!tag || PAGE_TAGS.has(tag)) break;
    const place = clean(read.attr(current, 'aria-label') || headingWithin(read, current, inner));
    if (place) return shorten(place);
    inner = current;
    current = read.parent(current);
  }
  return '';
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
const ordinal = (n: number) => `${n}${Math.floor(n / 10) % 10 === 1 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/** One element as a list names it: its name and its place ('' when unknown), under a key of the caller's. */
export interface NamedElement<K> {
  key: K;
  name: string;
  place: string;
  /** Its place is said even when its name is its own: a name by kind ("Button") says little alone. */
  placed?: boolean;
}

/**
 * What tells elements with one name apart, by key: nothing for a name used once; the place when
 * it is the only one with that name there; else the place and its position among them, in the
 * order given ("Kettle, 2nd of 3", or "2nd of 3" with no place known).
 */
export function tellApart<K>(elements: readonly NamedElement<K>[]): Map<K, string> {
  const byName = new Map<string, NamedElement<K>[]>();
  for (const element of elements) byName.set(element.name, [...(byName.get(element.name) ?? []), element]);
  const where = new Map<K, string>();
  for (const same of byName.values()) {
    same.forEach((element, i) => {
      if (same.length === 1) return where.set(element.key, element.placed ? element.place : '');
      const placeShared = !element.place || same.some((other) => other !== element && other.place === element.place);
      const position = `${ordinal(i + 1)} of ${same.length}`;
      where.set(element.key, !placeShared ? element.place : element.place ? `${element.place}, ${position}` : position);
    });
  }
  return where;
}

/** "Add to cart (Kettle)", or the name alone when nothing needs telling apart. */
export const nameWithPlace = (name: string, where: string | undefined): string => (where ? `${name} (${where})` : name);

/**
 * A name and place read from a heatmap's selector path alone (the element is not on the page
 * rebuilt): its kind ("Button") and its nearest id or data attribute ("checkout"), never the path.
 */
export function selectorName(selector: string): { name: string; place: string } {
  const parts = selector.split('>');
  const tag = /^[a-z][a-z0-9-]*/i.exec(parts[parts.length - 1] ?? '')?.[0]?.toLowerCase() ?? '';
  let place = '';
  for (let i = parts.length - 2; i >= 0 && !place; i--) place = /^#(.+)$/.exec(parts[i])?.[1] ?? /\[data-[\w-]+="(.+)"\]$/.exec(parts[i])?.[1] ?? '';
  const own = /^#(.+)$/.exec(parts[parts.length - 1] ?? '')?.[1];
  return { name: shorten(KIND_NAMES[tag] ?? (own ? `#${own}` : 'Element')), place: shorten(place.replace(/\\(.)/g, '$1')) };
}
