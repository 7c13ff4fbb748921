// What a click landed on, named as a person reads it ("Add to cart") and, where two clicked
// elements share a name, where it is ("Kettle"): the recorded page is followed through its
// snapshots and mutations, and each click's element is named at the moment of the click by the
// shared rule (common/element-names.ts). Masked text stays as recorded (asterisks).

import { EventType, IncrementalSource, MouseInteractions } from '@rrweb/types';
import type { ReplayEvent } from '../../../common/api-types.js';
import { kindName, PAGE_TAGS, placeOf, tellApart, wordsOf, type NodeReader } from '../../../common/element-names.js';

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

/** How far up a click inside a control takes the control's name (the icon in a button). */
const MAX_CONTROL_DEPTH = 3;
/** Ancestors whose name a click inside them takes (the icon in a button, the image in a link). */
const CONTROL_TAGS = new Set(['a', 'button', 'label', 'summary', 'option', 'select']);
const CONTROL_ROLES = new Set(['button', 'link', 'menuitem', 'tab', 'checkbox', 'radio', 'switch', 'option']);

/** What a click landed on: the element's name and place, and which element (the same node of one page load clicked twice is one). */
export interface ClickTarget {
  element: string;
  name: string;
  place: string;
  /** Named by its kind ("Button"): its place is always said. */
  placed: boolean;
}

/** The recorded page as rrweb's ids see it, enough to name an element. */
class RecordedPage {
  private nodes = new Map<number, PageNode>();

  /** The shared naming rule's view of these nodes. */
  readonly reader: NodeReader<number> = {
    tag: (id) => this.nodes.get(id)?.tag ?? null,
    attr: (id, name) => {
      const value = this.nodes.get(id)?.attributes[name];
      return typeof value === 'string' ? value : '';
    },
    text: (id) => this.nodes.get(id)?.text ?? '',
    parent: (id) => this.nodes.get(id)?.parent ?? null,
    children: (id) => this.nodes.get(id)?.children ?? [],
  };

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

  /** The control the click is in (a button around an icon), else the element itself; null for the page's background. */
  target(id: number, load: number): ClickTarget | null {
    const own = this.nodes.get(id);
    if (!own || (own.tag && PAGE_TAGS.has(own.tag))) return null;
    // A click on words is a click on the element holding them.
    let node = own.tag === null && own.parent !== null ? own.parent : id;
    for (let up: number | null = id, depth = 0; up !== null && depth <= MAX_CONTROL_DEPTH; up = this.reader.parent(up), depth++) {
      if (this.isControl(up)) {
        node = up;
        break;
      }
    }
    const words = wordsOf(this.reader, node);
    const name = words || kindName(this.reader, node);
    return name ? { element: `${load}:${node}`, name, place: placeOf(this.reader, node), placed: !words } : null;
  }

  private isControl(id: number): boolean {
    const tag = this.reader.tag(id);
    return (tag !== null && CONTROL_TAGS.has(tag)) || CONTROL_ROLES.has(this.reader.attr(id, 'role'));
  }
}

interface MutationData {
  adds?: { parentId?: number; node?: SerializedNode }[];
  texts?: { id?: number; value?: unknown }[];
  attributes?: { id?: number; attributes?: unknown }[];
}

/** Each click's target by the click's timestamp (events in time order). */
export function clickTargets(events: ReplayEvent[]): Map<number, ClickTarget> {
  const page = new RecordedPage();
  const targets = new Map<number, ClickTarget>();
  // rrweb numbers a page's nodes afresh on each page load (a Meta event starts one).
  let load = 0;
  for (const event of events) {
    const data = (event.data ?? {}) as { node?: SerializedNode; source?: number; type?: number; id?: number } & MutationData;
    if (event.type === EventType.Meta) load++;
    else if (event.type === EventType.FullSnapshot && data.node) {
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
      const target = page.target(data.id, load);
      if (target) targets.set(event.timestamp, target);
    }
  }
  return targets;
}

/**
 * Each click's element named, and where two clicked elements share a name, placed ("Kettle"):
 * by the click's timestamp. Elements are told apart in the order first clicked.
 */
export function clickTargetNames(events: ReplayEvent[]): Map<number, { name: string; where: string }> {
  const targets = clickTargets(events);
  const elements = new Map<string, ClickTarget>();
  for (const target of targets.values()) if (!elements.has(target.element)) elements.set(target.element, target);
  const where = tellApart([...elements.values()].map((e) => ({ key: e.element, name: e.name, place: e.place, placed: e.placed })));
  return new Map([...targets].map(([t, target]) => [t, { name: target.name, where: where.get(target.element) ?? '' }]));
}
