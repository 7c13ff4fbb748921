// What happened in a recording, as the replay page lists it: the session facts' marked moments
// (navigations, clicks, rage and dead clicks, quick backs, excessive scrolling, errors, failed requests) plus the stretches with no
// user input, each at its offset from the recording's start (the player's clock), and the
// captured console messages and requests for the Console and Network tabs.

import { EventType } from '@rrweb/types';
import type { ReplayEvent } from '../../../common/api-types.js';
import { CAPTURED_TAGS } from '../../../common/captured.js';
import { emptyFacts, factMoments, foldFacts, INACTIVITY_MS, type FactMark } from '../../../common/session-facts.js';
import { formatPlayerTime } from '../player/playerMath.js';
import { clickTargetNames } from './clickTargets.js';

export type ActivityKind = 'navigation' | 'click' | 'rage' | 'dead' | 'quickBack' | 'scrolling' | 'error' | 'request' | 'inactivity' | 'note' | 'event';

export const ACTIVITY_KINDS: ActivityKind[] = [
  'navigation',
  'click',
  'rage',
  'dead',
  'quickBack',
  'scrolling',
  'error',
  'request',
  'inactivity',
  'note',
  'event',
];

export const ACTIVITY_NAMES: Record<ActivityKind, string> = {
  navigation: 'Navigation',
  click: 'Click',
  rage: 'Rage click',
  dead: 'Dead click',
  quickBack: 'Quick back',
  scrolling: 'Excessive scrolling',
  error: 'Error',
  request: 'Failed request',
  inactivity: 'Inactivity',
  note: 'Note',
  event: 'Event',
};

export interface ActivityItem {
  kind: ActivityKind;
  /** Milliseconds from the recording's start. */
  at: number;
  /** How long, for an inactivity stretch. */
  durationMs?: number;
  /** The page's path, for a navigation. */
  detail?: string;
  /** What was clicked, as a person reads it ("Add to cart"), for a click, rage or dead click. */
  target?: string;
  /** Where it is ("Kettle"), when another clicked element has its name (common/element-names.ts). */
  where?: string;
  /** A note's text, or the name of an event the page sent (tapedeck.event). */
  note?: string;
}

export interface CapturedEntry {
  at: number;
  text: string;
}

const FACT_KIND: Record<FactMark, ActivityKind> = {
  ...{ page: 'navigation', click: 'click', rage: 'rage', dead: 'dead', quickBack: 'quickBack', scrolling: 'scrolling' },
  ...{ error: 'error', request: 'request', event: 'event' },
};

/** The player's clock starts at the earliest event. */
export const recordingStart = (events: ReplayEvent[]): number => events.reduce((min, e) => Math.min(min, e.timestamp), Number.POSITIVE_INFINITY);

/** Gaps of more than INACTIVITY_MS between user inputs (times in order), from the recording's start. */
function inactivity(inputs: number[], start: number): ActivityItem[] {
  const stretches: ActivityItem[] = [];
  for (let i = 1; i < inputs.length; i++) {
    const gap = inputs[i] - inputs[i - 1];
    if (gap > INACTIVITY_MS) stretches.push({ kind: 'inactivity', at: inputs[i - 1] - start, durationMs: gap });
  }
  return stretches;
}

/**
 * Every activity item of a recording, in time order. The session facts' own rules read the
 * events (what counts as user input, a page, a rage or dead click), as at ingest.
 */
export function activityItems(events: ReplayEvent[]): ActivityItem[] {
  if (!events.length) return [];
  const start = recordingStart(events);
  const sorted = events.slice().sort((a, b) => a.timestamp - b.timestamp);
  const moments = factMoments(sorted);
  const marked: ActivityItem[] = [];
  const targets = clickTargetNames(sorted);
  foldFacts(emptyFacts(), moments, (kind, t) => {
    const target = kind === 'click' || kind === 'rage' || kind === 'dead' ? targets.get(t) : undefined;
    const named = target ? { target: target.name, ...(target.where ? { where: target.where } : {}) } : {};
    marked.push({ kind: FACT_KIND[kind], at: Math.max(0, t - start), ...named });
  });
  // Pages are marked in visit order: each navigation takes the next page's path.
  const pages = moments.flatMap((moment) => (moment.kind === 'page' ? [moment.path] : []));
  let page = 0;
  for (const item of marked) if (item.kind === 'navigation') item.detail = pages[page++];
  // Events likewise take their names in order.
  const names = moments.flatMap((moment) => (moment.kind === 'event' ? [moment.name] : []));
  let name = 0;
  for (const item of marked) if (item.kind === 'event') item.note = names[name++];
  const inputs = moments.flatMap((moment) => (moment.kind === 'input' ? [moment.t] : []));
  return [...marked, ...inactivity(inputs, start)].sort((a, b) => a.at - b.at);
}

/** "Click on 'Add to cart'", "Click on 'Add to cart' (Kettle)", or "Rage click" when the element has no name; "Note: Pays here". */
export const activityName = (item: ActivityItem): string =>
  item.note !== undefined
    ? `${ACTIVITY_NAMES[item.kind]}: ${item.note}`
    : item.target
      ? `${ACTIVITY_NAMES[item.kind]} on '${item.target}'${item.where ? ` (${item.where})` : ''}`
      : ACTIVITY_NAMES[item.kind];

/** The replay's notes as activity items, at their moments on the player's clock. */
export function noteItems(notes: readonly { text: string; timestamp: number }[], events: ReplayEvent[]): ActivityItem[] {
  if (!events.length) return [];
  const start = recordingStart(events);
  return notes.map((note) => ({ kind: 'note' as const, at: Math.max(0, note.timestamp - start), note: note.text }));
}

/** "Rage click on 'Pay' at 00:12" — a marker's accessible name. */
export const activityLabel = (item: ActivityItem): string => `${activityName(item)} at ${formatPlayerTime(item.at)}`;

/** Pointer targets on the timeline are at least this wide and tall, never overlapping (WCAG 2.2 target size). */
export const MARKER_PX = 24;
/** The kind a group of moments shows as its colour: the one most worth a look. */
const SHOWN_FIRST: ActivityKind[] = ['error', 'rage', 'dead', 'quickBack', 'scrolling', 'request', 'event', 'navigation', 'click'];

export interface MarkerGroup {
  /** The centre's distance from the strip's left edge, in pixels. */
  x: number;
  kind: ActivityKind;
  /** Where a click takes the player: the group's first moment. */
  at: number;
  /** Each moment's name, duplicates dropped: "Click at 00:12, Rage click at 00:12". */
  label: string;
}

/**
 * The timeline's markers on a strip `width` pixels wide: the moments (inactivity stretches are
 * drawn apart, not targets) placed along the recording, those closer than MARKER_PX to a group's
 * first one joined to it, so no two targets overlap however dense the recording.
 */
export function markerGroups(items: ActivityItem[], totalTime: number, width: number): MarkerGroup[] {
  const half = MARKER_PX / 2;
  const groups: (MarkerGroup & { members: ActivityItem[] })[] = [];
  for (const item of items) {
    if (item.kind === 'inactivity') continue;
    const x = Math.min(Math.max(half, (item.at / totalTime) * width), Math.max(half, width - half));
    const last = groups[groups.length - 1];
    if (last && x - last.x < MARKER_PX) last.members.push(item);
    else groups.push({ x, kind: item.kind, at: item.at, label: '', members: [item] });
  }
  return groups.map(({ members, ...group }) => ({
    ...group,
    kind: SHOWN_FIRST.find((kind) => members.some((m) => m.kind === kind)) ?? group.kind,
    label: [...new Set(members.map(activityLabel))].join(', '),
  }));
}

/** The item being played: the last one at or before the player's time. */
export function currentItemIndex(items: ActivityItem[], currentMs: number): number {
  let index = -1;
  for (let i = 0; i < items.length && items[i].at <= currentMs; i++) index = i;
  return index;
}

type Payload = { level?: unknown; message?: unknown; method?: unknown; url?: unknown; status?: unknown; source?: unknown };

/** Captured console messages and errors (Console) and failed requests (Network). */
export function capturedEntries(events: ReplayEvent[]): { console: CapturedEntry[]; network: CapturedEntry[] } {
  const start = recordingStart(events);
  const out = { console: [] as CapturedEntry[], network: [] as CapturedEntry[] };
  const sorted = events.filter((e) => e.type === EventType.Custom).sort((a, b) => a.timestamp - b.timestamp);
  for (const event of sorted) {
    const { tag, payload = {} } = (event.data ?? {}) as { tag?: unknown; payload?: Payload };
    const at = event.timestamp - start;
    if (tag === CAPTURED_TAGS.error) out.console.push({ at, text: `Error: ${String(payload.message ?? '')}` });
    else if (tag === CAPTURED_TAGS.console) out.console.push({ at, text: `console.${String(payload.level ?? 'log')}: ${String(payload.message ?? '')}` });
    else if (tag === CAPTURED_TAGS.request) {
      const status = Number(payload.status) || 0;
      out.network.push({ at, text: `${String(payload.method ?? 'GET')} ${String(payload.url ?? '')} — ${status ? status : 'failed'}` });
    }
  }
  return out;
}
