// What a click landed on, named as a person reads it ("Add to cart"): the recorded page is
// followed through its snapshots and mutations, and each click's element is named at the moment
// of the click from its label, text, alt or title. Masked text stays as recorded (asterisks).

import { EventType, IncrementalSource, MouseInteractions } from '@rrweb/types';
import type { ReplayEvent } from '../../../common/api-types.js';

/** rrweb's serialized node types. */
const ELEMENT = 2;
const TEXT = 3;

interface SerializedNode {
  id?: number;
  type?: number;
  tagName?: string;
  attributes?: Record<string, unknown>;
  textContent?: string;
  childNodes?: SerializedNode[];
}

interface PageNode {
  tag: string | null;
  attributes: Record<string, unknown>;
  text: string;
  parent: number | null;
  children: number[];
}

/** Longest name shown; how far a name is looked for, so a click costs little whatever the page. */
const MAX_NAME = 40;
const MAX_NODES_READ = 200;
const MAX_ANCESTORS = 3;

const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template']);
/** Too large to name: a click on the page's background says nothing about an element. */
const UNNAMED_TAGS = new Set(['html', 'body', 'main', 'head']);
/** Ancestors whose name a click inside them takes (the icon in a button, the image in a link). */
const CONTROL_TAGS = new Set(['a', 'button', 'label', 'summary', 'option', 'select']);
const CONTROL_ROLES = new Set(['button', 'link', 'menuitem', 'tab', 'checkbox', 'radio', 'switch', 'option']);

/** The recorded page as rrweb's ids see it, enough to name an element. */
class RecordedPage {
  private nodes = new Map<number, PageNode>();

  reset(): void {
    this.nodes.clear();
  }

  /** Adds a serialized node and its subtree (iteratively: a page may nest very deep). */
  add(root: SerializedNode, parent: number | null): void {
    const stack: [SerializedNode, number | null][] = [[root, parent]];
    while (stack.length) {
      const [node, parentId] = stack.pop()!;
      if (typeof node?.id !== 'number') continue;
      this.nodes.set(node.id, {
        tag: node.type === ELEMENT && typeof node.tagName === 'string' ? node.tagName.toLowerCase() : null,
        attributes: node.attributes && typeof node.attributes === 'object' ? { ...node.attributes } : {},
        text: node.type === TEXT && typeof node.textContent === 'string' ? node.textContent : '',
        parent: parentId,
        children: [],
      });
      if (parentId !== null) this.nodes.get(parentId)?.children.push(node.id);
      for (const child of Array.isArray(node.childNodes) ? node.childNodes : []) stack.push([child, node.id]);
    }
  }

  setText(id: number, value: unknown): void {
    const node = this.nodes.get(id);
    if (node && typeof value === 'string') node.text = value;
  }

  setAttributes(id: number, attributes: unknown): void {
    const node = this.nodes.get(id);
    if (node && attributes && typeof attributes === 'object') Object.assign(node.attributes, attributes);
  }

  /** The name of the control the click is in (a button around an icon), else the element's own. */
  name(id: number): string | null {
    const own = this.nodes.get(id);
    if (!own || (own.tag && UNNAMED_TAGS.has(own.tag))) return null;
    let current: number | null = id;
    for (let depth = 0; current !== null && depth <= MAX_ANCESTORS; depth++) {
      const node = this.nodes.get(current);
      if (!node) break;
      if (isControl(node)) return this.ownName(current, node);
      current = node.parent;
    }
    return this.ownName(id, own);
  }

  private ownName(id: number, node: PageNode): string | null {
    const attribute = (key: string) => (typeof node.attributes[key] === 'string' ? (node.attributes[key] as string) : '');
    const type = attribute('type').toLowerCase();
    const candidates = [
      attribute('aria-label'),
      node.tag === 'img' || type === 'image' ? attribute('alt') : '',
      node.tag === 'input' && ['button', 'submit', 'reset'].includes(type) ? attribute('value') : '',
      this.textWithin(id),
      attribute('title'),
      attribute('placeholder'),
    ];
    const found = candidates.map((text) => text.replace(/\s+/g, ' ').trim()).find(Boolean);
    return found ? shorten(found) : null;
  }

  /** The text inside an element (and its images' alt text), reading a bounded number of nodes. */
  private textWithin(id: number): string {
    const parts: string[] = [];
    const stack = [id];
    for (let read = 0; stack.length && read < MAX_NODES_READ; read++) {
      const node = this.nodes.get(stack.pop()!);
      if (!node || (node.tag && SKIPPED_TAGS.has(node.tag))) continue;
      if (node.text) parts.push(node.text);
      if (node.tag === 'img' && typeof node.attributes.alt === 'string') parts.push(node.attributes.alt);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
    return parts.join(' ');
  }
}

const isControl = (node: PageNode) =>
  (node.tag !== null && CONTROL_TAGS.has(node.tag)) || (typeof node.attributes.role === 'string' && CONTROL_ROLES.has(node.attributes.role));

const shorten = (text: string) => (text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text);

interface MutationData {
  adds?: { parentId?: number; node?: SerializedNode }[];
  texts?: { id?: number; value?: unknown }[];
  attributes?: { id?: number; attributes?: unknown }[];
}

/** Each click's element name by the click's timestamp (events in time order). */
export function clickTargetNames(events: ReplayEvent[]): Map<number, string> {
  const page = new RecordedPage();
  const names = new Map<number, string>();
  for (const event of events) {
    const data = (event.data ?? {}) as { node?: SerializedNode; source?: number; type?: number; id?: number } & MutationData;
    if (event.type === EventType.FullSnapshot && data.node) {
      page.reset();
      page.add(data.node, null);
    } else if (event.type === EventType.IncrementalSnapshot && data.source === IncrementalSource.Mutation) {
      for (const add of data.adds ?? []) if (add?.node) page.add(add.node, typeof add.parentId === 'number' ? add.parentId : null);
      for (const text of data.texts ?? []) if (typeof text?.id === 'number') page.setText(text.id, text.value);
      for (const change of data.attributes ?? []) if (typeof change?.id === 'number') page.setAttributes(change.id, change.attributes);
    } else if (
      event.type === EventType.IncrementalSnapshot &&
      data.source === IncrementalSource.MouseInteraction &&
      data.type === MouseInteractions.Click &&
      typeof data.id === 'number'
    ) {
      const name = page.name(data.id);
      if (name) names.set(event.timestamp, name);
    }
  }
  return names;
}
