import { EventType, IncrementalSource } from '@rrweb/types';
import { ALWAYS_BLOCKED } from '../../common/recording-rules.js';
import { blockSelector, judgeElement, rootAncestry, type Ancestry, type BlockSelector } from './block-selector.js';
import { idRuns, inRuns, MAX_ID_RUNS, type IdRuns } from '../../common/id-runs.js';

// Ingest's backstop for "Elements Never Recorded": the tracker has rrweb replace blocked elements
// by same-size placeholders; a modified tracker may send them whole. Here a blocked element of a
// full snapshot or of added nodes keeps only what the placeholder keeps, its descendants go, and a
// batch's mutations of text or attributes under it are dropped. What a page's earlier batches
// blocked comes in as the session's carried id runs (bounded: common/id-runs.ts); which of an
// element's ancestors matched part of a descendant selector is known only within one batch.

/** rrweb's serialised node (only what is read or cut here). */
interface SerialisedNode {
  type?: unknown;
  id?: unknown;
  tagName?: unknown;
  attributes?: Record<string, unknown> | null;
  childNodes?: unknown;
  textContent?: unknown;
}

/** What a placeholder keeps of a blocked element: what rrweb's own block keeps. */
const PLACEHOLDER_ATTRIBUTES = ['id', 'class', 'rr_width', 'rr_height'];

const ELEMENT = 2;

const isNode = (value: unknown): value is SerialisedNode => !!value && typeof value === 'object';
const childrenOf = (node: SerialisedNode): SerialisedNode[] => (Array.isArray(node.childNodes) ? node.childNodes.filter(isNode) : []);

const compiled = new Map<string, BlockSelector>();

/** The campaign's selector with the always-blocked classes (rrweb's .rr-block too), compiled once per text. */
function selectorFor(campaignSelector: string): BlockSelector {
  let selector = compiled.get(campaignSelector);
  if (!selector) {
    if (compiled.size > 100) compiled.clear();
    selector = blockSelector(`${ALWAYS_BLOCKED},.rr-block${campaignSelector ? ',' + campaignSelector : ''}`);
    compiled.set(campaignSelector, selector);
  }
  return selector;
}

/** One batch's view of the page: which nodes are blocked or inside one, and what elements pass to their children. */
class PageView {
  /** Blocked elements (placeholders) and every node below them. */
  readonly hidden = new Set<number>();
  readonly ancestry = new Map<number, Ancestry>();
  /** Ids the mutations touch (parents of adds, nodes changed): whether the carried runs matter to the batch. */
  readonly touched = new Set<number>();
  changed = false;

  /** `carried`: what the page's earlier batches blocked (none for a view opened by a full snapshot). */
  constructor(
    readonly selector: BlockSelector,
    readonly carried: IdRuns = [],
  ) {}

  /** Whether a node a mutation touches is hidden; the id is noted (the batch needs the carried runs when they hold it). */
  hides(id: number): boolean {
    this.touched.add(id);
    return this.hidden.has(id) || inRuns(this.carried, id);
  }

  /** Walks a serialised subtree under `inherited`, cutting blocked elements down to placeholders. */
  walk(root: SerialisedNode, inherited: Ancestry, insideBlocked: boolean): void {
    const stack: [SerialisedNode, Ancestry, boolean][] = [[root, inherited, insideBlocked]];
    while (stack.length) {
      const [node, ancestry, inside] = stack.pop() as [SerialisedNode, Ancestry, boolean];
      const id = typeof node.id === 'number' ? node.id : undefined;
      if (inside) {
        if (id !== undefined) this.hidden.add(id);
        for (const child of childrenOf(node)) stack.push([child, ancestry, true]);
        continue;
      }
      if (node.type !== ELEMENT) {
        for (const child of childrenOf(node)) stack.push([child, ancestry, false]);
        continue;
      }
      const { blocked, children } = judgeElement(this.selector, node, ancestry);
      if (id !== undefined) this.ancestry.set(id, children);
      if (blocked) {
        if (id !== undefined) this.hidden.add(id);
        for (const child of childrenOf(node)) stack.push([child, children, true]);
        this.toPlaceholder(node);
      } else for (const child of childrenOf(node)) stack.push([child, children, false]);
    }
  }

  toPlaceholder(node: SerialisedNode): void {
    const attributes = node.attributes && typeof node.attributes === 'object' ? node.attributes : {};
    const kept = Object.fromEntries(PLACEHOLDER_ATTRIBUTES.filter((name) => Object.hasOwn(attributes, name)).map((name) => [name, attributes[name]]));
    if (Object.keys(kept).length !== Object.keys(attributes).length || childrenOf(node).length) this.changed = true;
    node.attributes = kept;
    node.childNodes = [];
  }

  /** A mutation: adds under blocked nodes dropped (blocked added elements cut), text and attribute changes of hidden nodes dropped. */
  mutation(data: { adds?: unknown; texts?: unknown; attributes?: unknown }): void {
    if (Array.isArray(data.adds)) data.adds = this.adds(data.adds);
    for (const key of ['texts', 'attributes'] as const) {
      const list = data[key];
      if (!Array.isArray(list)) continue;
      const kept = list.filter((entry: { id?: unknown }) => !(typeof entry?.id === 'number' && this.hides(entry.id)));
      if (kept.length !== list.length) {
        data[key] = kept;
        this.changed = true;
      }
    }
  }

  /** Added nodes, parents before children whatever their order in the list; those under a blocked node dropped. */
  adds(list: unknown[]): unknown[] {
    type Add = { parentId?: unknown; node?: unknown };
    const adds = list.filter((add): add is Add => !!add && typeof add === 'object' && isNode((add as Add).node));
    const byParent = new Map<unknown, Add[]>();
    const addedIds = new Set(adds.map((add) => (add.node as SerialisedNode).id));
    for (const add of adds) byParent.set(add.parentId, [...(byParent.get(add.parentId) ?? []), add]);
    const dropped = new Set<Add>();
    const judged = new Set<Add>();
    const visitedIds = new Set<unknown>();
    const visit = (add: Add) => {
      judged.add(add);
      const node = add.node as SerialisedNode;
      const parent = typeof add.parentId === 'number' ? add.parentId : -1;
      const inside = this.hides(parent);
      if (inside) dropped.add(add);
      this.walk(node, this.ancestry.get(parent) ?? rootAncestry(this.selector), inside);
      // A node id added twice passes its children on once.
      if (visitedIds.has(node.id)) return [];
      visitedIds.add(node.id);
      return byParent.get(node.id) ?? [];
    };
    // Roots first (a parent not added in this list), then each added node's children, iteratively.
    const queue = adds.filter((add) => !addedIds.has(add.parentId));
    for (let i = 0; i < queue.length; i++) queue.push(...visit(queue[i]));
    // Adds no root leads to (parents that add each other: only a forged batch) are dropped.
    for (const add of adds) if (!judged.has(add)) dropped.add(add);
    if (!dropped.size) return list;
    this.changed = true;
    return list.filter((add) => !dropped.has(add as Add));
  }
}

interface EventLike {
  type: number;
  data: unknown;
}

/** What cutting blocked elements out of a batch did and found. */
export interface BlockedCut {
  changed: boolean;
  /** The blocked nodes of the batch's last page view, as runs; `reset`: that view began with a full snapshot (what the session carried no longer applies). */
  hidden: IdRuns;
  reset: boolean;
  /** Ids the batch's mutations touch before its first full snapshot, as runs (null: too many to list): whether the session's carried runs matter. */
  touched: IdRuns | null;
}

/** Cuts blocked elements out of a batch's events (in place), mutations before its first full snapshot judged with `carried` too. */
export function withoutBlockedText(events: EventLike[], campaignSelector: string, carried: IdRuns = []): BlockedCut {
  const selector = selectorFor(campaignSelector);
  const opening = new PageView(selector, carried);
  let view = opening;
  let changed = false;
  for (const event of events) {
    const data = event.data as { node?: unknown; source?: unknown } | null;
    if (!data || typeof data !== 'object') continue;
    if (event.type === EventType.FullSnapshot && isNode(data.node)) {
      changed ||= view.changed;
      view = new PageView(selector);
      view.walk(data.node, rootAncestry(selector), false);
    } else if (event.type === EventType.IncrementalSnapshot && data.source === IncrementalSource.Mutation) view.mutation(data as never);
  }
  const touched = idRuns(opening.touched, Infinity);
  return {
    changed: changed || view.changed,
    hidden: idRuns(view.hidden),
    reset: view !== opening,
    touched: touched.length > MAX_ID_RUNS ? null : touched,
  };
}
