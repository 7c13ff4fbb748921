// The first of session-facts.ts's two steps: a batch's events reduced to the few moments the
// rules look at (run where the batch is parsed, in ingest's worker thread).

import { EventType, IncrementalSource, MouseInteractions } from '@rrweb/types';
import { CAPTURED_TAGS, MAX_ERROR_MESSAGE } from './captured.js';
import { storable } from './scrub.js';
import { PEOPLE_TAGS, type Fields } from './people.js';
import { MAX_PAGE_PATH } from './page-pattern.js';
import type { IdRuns } from './id-runs.js';

/**
 * Human input: what a person at the page produces — mouse moves, mouse interactions (clicks,
 * focus, touch start and end), touch moves, drags and typed input. Scrolls and viewport resizes
 * are left out: a crawler scrolls to load lazy content and sizes its window, with nobody there.
 * Active time is time with human input, and a session without any is a bot ("No human input").
 */
const HUMAN_INPUT_SOURCES = new Set<number>([
  IncrementalSource.MouseMove,
  IncrementalSource.MouseInteraction,
  IncrementalSource.Input,
  IncrementalSource.TouchMove,
  IncrementalSource.Drag,
]);

const isHumanInput = (event: { type: number; data: unknown }) =>
  event.type === EventType.IncrementalSnapshot && HUMAN_INPUT_SOURCES.has((event.data as { source?: number } | null)?.source ?? -1);

/** Whether any of the events is human input. */
export const hasHumanInput = (events: { type: number; data: unknown }[]) => events.some(isHumanInput);

/** A moment the rules look at, from one event (an event may give two: a click is also input). */
export type Moment =
  | { kind: 'input'; t: number }
  /** `field`: the click landed in a text field (the tracker marks it: tracker/src/field-click.ts), never dead. */
  | { kind: 'click'; t: number; x: number; y: number; field?: true }
  | { kind: 'response'; t: number }
  | { kind: 'page'; t: number; path: string }
  /** Ingest only: the session went on to a page the campaign does not record (its path is not kept). */
  | { kind: 'unrecorded'; t: number }
  /** Ingest only: the nodes the batch's page view blocked (server/ingest/blocked-elements.ts); `reset`: a full snapshot began that view. */
  | { kind: 'blocked'; t: number; runs: IdRuns; reset: boolean }
  | { kind: 'scroll'; t: number; id: number; y: number }
  | { kind: 'error'; t: number; message?: string }
  | { kind: 'request'; t: number }
  | { kind: 'identify'; t: number; userId: string; traits: Fields }
  | { kind: 'event'; t: number; name: string }
  /** Words a person read or clicked: the page's title, a clicked element's text (what the list's search finds). */
  | { kind: 'text'; t: number; text: string }
  | { kind: 'tag'; t: number; key: string; value: string };

export interface EventLike {
  type: number;
  data: unknown;
  timestamp: number;
}

/** A URL's path, without origin, query string and fragment (and, from a page address that is no URL, no NUL). */
export function pathOf(href: string): string {
  try {
    return new URL(href).pathname.slice(0, MAX_PAGE_PATH);
  } catch {
    return storable(href.split(/[?#]/)[0], MAX_PAGE_PATH);
  }
}

/** A page title or clicked text is cut here: the search matches a text's start and its words' starts. */
export const MAX_SEARCH_TEXT = 200;

/** The text as a search text moment, if it has a letter or digit (masked text is asterisks only). */
function textMoment(t: number, text: unknown): Moment[] {
  // Spaces as a reader sees them: a title's markup may break its line.
  const kept = typeof text === 'string' ? storable(text.replace(/\s+/g, ' '), MAX_SEARCH_TEXT).trim() : '';
  return /[\p{L}\p{N}]/u.test(kept) ? [{ kind: 'text', t, text: kept }] : [];
}

interface SnapshotNode {
  type?: unknown;
  tagName?: unknown;
  textContent?: unknown;
  childNodes?: unknown;
}

/** The element children of a snapshot node named `tag`, as rrweb serialises them. */
const childrenNamed = (node: SnapshotNode | undefined, tag: string): SnapshotNode[] =>
  Array.isArray(node?.childNodes) ? (node.childNodes as SnapshotNode[]).filter((child) => child?.type === 2 && child.tagName === tag) : [];

/** A full snapshot's page title: the text of <html><head><title>, read without walking the page. */
export function snapshotTitle(root: unknown): string | undefined {
  const [title] = childrenNamed(childrenNamed(childrenNamed(root as SnapshotNode, 'html')[0], 'head')[0], 'title');
  const texts = Array.isArray(title?.childNodes) ? (title.childNodes as SnapshotNode[]) : [];
  const text = texts.find((child) => child?.type === 3 && typeof child.textContent === 'string');
  return text?.textContent as string | undefined;
}

const isFields = (value: unknown): value is Fields => !!value && typeof value === 'object' && !Array.isArray(value);

/** Traits as a column can hold them: keys and text values storable (PostgreSQL's jsonb refuses a NUL or a lone surrogate). */
const storableFields = (fields: unknown): Fields =>
  isFields(fields)
    ? Object.fromEntries(Object.entries(fields).map(([key, value]) => [storable(key), typeof value === 'string' ? storable(value) : value]))
    : {};

/** What the page told with tapedeck.identify, .event and .tag (common/people.ts); ingest's schema bounds them. */
function peopleMoments(t: number, tag: unknown, payload: Record<string, unknown> | undefined): Moment[] {
  if (!payload || typeof payload !== 'object') return [];
  // Names as a column can hold them (no NUL: PostgreSQL refuses one in text and in JSON).
  if (tag === PEOPLE_TAGS.identify && typeof payload.userId === 'string')
    return [{ kind: 'identify', t, userId: storable(payload.userId), traits: storableFields(payload.traits) }];
  if (tag === PEOPLE_TAGS.event && typeof payload.name === 'string') return [{ kind: 'event', t, name: storable(payload.name) }];
  if (tag === PEOPLE_TAGS.tag && typeof payload.key === 'string' && typeof payload.value === 'string')
    return [{ kind: 'tag', t, key: storable(payload.key), value: storable(payload.value) }];
  return [];
}

function momentsOf(event: EventLike): Moment[] {
  const t = event.timestamp;
  const data = (event.data ?? {}) as {
    source?: number;
    type?: number;
    id?: number;
    x?: number;
    y?: number;
    href?: unknown;
    tag?: unknown;
    field?: unknown;
    node?: unknown;
    payload?: { level?: unknown; status?: unknown; message?: unknown; t?: unknown };
  };
  switch (event.type) {
    case EventType.Meta:
      return typeof data.href === 'string'
        ? [
            { kind: 'page', t, path: pathOf(data.href) },
            { kind: 'response', t },
          ]
        : [{ kind: 'response', t }];
    case EventType.FullSnapshot:
      return [{ kind: 'response', t }, ...textMoment(t, snapshotTitle(data.node))];
    case EventType.Custom:
      if (data.tag === CAPTURED_TAGS.error || (data.tag === CAPTURED_TAGS.console && data.payload?.level === 'error')) {
        // The message groups the campaign's errors (server/insights/errors.ts).
        const message = typeof data.payload?.message === 'string' ? storable(data.payload.message, MAX_ERROR_MESSAGE).trim() : '';
        return [message ? { kind: 'error', t, message } : { kind: 'error', t }];
      }
      // A request the click set off answers it, as does the page going away (a link leaving, the tab closing).
      if (data.tag === CAPTURED_TAGS.request)
        return [
          { kind: 'request', t },
          { kind: 'response', t },
        ];
      if (data.tag === CAPTURED_TAGS.hidden) return [{ kind: 'response', t }];
      // The heatmap's record of a click names what was clicked (its short visible text, masked by the tracker).
      if (data.tag === CAPTURED_TAGS.click) return textMoment(t, data.payload?.t);
      return peopleMoments(t, data.tag, data.payload as Record<string, unknown> | undefined);
    case EventType.IncrementalSnapshot: {
      const source = data.source ?? -1;
      const moments: Moment[] = [];
      if (isHumanInput(event)) moments.push({ kind: 'input', t });
      // A value typed after a click also shows the page took it (a field got the focus).
      if (source === IncrementalSource.Mutation || source === IncrementalSource.Scroll || source === IncrementalSource.Input)
        moments.push({ kind: 'response', t });
      if (source === IncrementalSource.MouseInteraction && data.type === MouseInteractions.Click)
        moments.push({ kind: 'click', t, x: Number(data.x) || 0, y: Number(data.y) || 0, ...(data.field === 1 && { field: true as const }) });
      if (source === IncrementalSource.Scroll && typeof data.id === 'number' && Number.isFinite(data.y))
        moments.push({ kind: 'scroll', t, id: data.id, y: Number(data.y) });
      return moments;
    }
    default:
      return [];
  }
}

/** The moments of a batch's events, in the events' order (ingest sorts a batch by time). */
export function factMoments(events: EventLike[]): Moment[] {
  const moments: Moment[] = [];
  for (const event of events) for (const moment of momentsOf(event)) moments.push(moment);
  return moments;
}
