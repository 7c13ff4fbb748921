// The facts a session's events tell — active time, pages, clicks, rage clicks, dead clicks,
// quick backs, excessive scrolling, errors, failed requests — by one set of rules, used where ingest stores them on the session
// row (a batch at a time, with a small carried state) and where the replay page marks its
// timeline (all events at once).
//
// Two steps, so ingest can run the heavy one where the batch is parsed (a worker thread):
// factMoments() reduces a batch's events to the few moments the rules look at, and
// foldFacts() folds moments into the carried state, in time order, batch after batch.

import { EventType, IncrementalSource, MouseInteractions } from '@rrweb/types';
import { CAPTURED_TAGS } from './captured.js';
import { storable } from './scrub.js';
import { boundedSet, emptyPeople, EVENT_NAMES_MAX, PEOPLE_TAGS, type Fields, type PeopleFacts } from './people.js';
import { isScrolling, quickBack, scroll, SCROLL_REVERSALS, type Scrolling } from './frustration-rules.js';


/** rrweb's inactivity gap: more than 10 s between human inputs is inactive time. */
export const INACTIVITY_MS = 10_000;
/** Rage clicks: at least RAGE_CLICKS clicks within RAGE_WINDOW_MS, each within RAGE_RADIUS_PX of the last. */
export const RAGE_CLICKS = 3;
export const RAGE_WINDOW_MS = 1000;
export const RAGE_RADIUS_PX = 30;
/** Dead click: no DOM change, navigation, scroll or input within this long after the click. */
export const DEAD_CLICK_MS = 1000;
/** Pages kept on the session row (the count goes on). */
export const MAX_PAGES = 50;
const MAX_PAGE_CHARS = 300;
/** An error's message as errors are grouped by it: its first 200 characters. */
export const MAX_ERROR_MESSAGE = 200;
/** Clicks the carried state keeps for the rage and dead rules: bounded whatever a page does. */
const MAX_RECENT_CLICKS = 20;

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
  | { kind: 'click'; t: number; x: number; y: number; field?: number }
  | { kind: 'typed'; t: number; id: number }
  | { kind: 'response'; t: number }
  | { kind: 'page'; t: number; path: string }
  | { kind: 'scroll'; t: number; id: number; y: number }
  | { kind: 'error'; t: number; message?: string }
  | { kind: 'request'; t: number }
  | { kind: 'identify'; t: number; userId: string; traits: Fields }
  | { kind: 'event'; t: number; name: string }
  | { kind: 'tag'; t: number; key: string; value: string };

interface EventLike {
  type: number;
  data: unknown;
  timestamp: number;
}

/** A URL's path, without origin, query string and fragment (and, from a page address that is no URL, no NUL). */
export function pathOf(href: string): string {
  try {
    return new URL(href).pathname.slice(0, MAX_PAGE_CHARS);
  } catch {
    return storable(href.split(/[?#]/)[0], MAX_PAGE_CHARS);
  }
}

const isFields = (value: unknown): value is Fields => !!value && typeof value === 'object' && !Array.isArray(value);

/** What the page told with tapedeck.identify, .event and .tag (common/people.ts); ingest's schema bounds them. */
function peopleMoments(t: number, tag: unknown, payload: Record<string, unknown> | undefined): Moment[] {
  if (!payload || typeof payload !== 'object') return [];
  // Names as a column can hold them (no NUL: PostgreSQL refuses one in text and in JSON).
  if (tag === PEOPLE_TAGS.identify && typeof payload.userId === 'string')
    return [{ kind: 'identify', t, userId: storable(payload.userId), traits: isFields(payload.traits) ? payload.traits : {} }];
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
    payload?: { level?: unknown; status?: unknown; message?: unknown };
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
      return [{ kind: 'response', t }];
    case EventType.Custom:
      if (data.tag === CAPTURED_TAGS.error || (data.tag === CAPTURED_TAGS.console && data.payload?.level === 'error')) {
        // The message groups the campaign's errors (server/insights/errors.ts).
        const message = typeof data.payload?.message === 'string' ? storable(data.payload.message, MAX_ERROR_MESSAGE).trim() : '';
        return [message ? { kind: 'error', t, message } : { kind: 'error', t }];
      }
      if (data.tag === CAPTURED_TAGS.request) return [{ kind: 'request', t }];
      return peopleMoments(t, data.tag, data.payload as Record<string, unknown> | undefined);
    case EventType.IncrementalSnapshot: {
      const source = data.source ?? -1;
      const moments: Moment[] = [];
      if (isHumanInput(event)) moments.push({ kind: 'input', t });
      // A value typed after a click also shows the page took it (a field got the focus).
      if (source === IncrementalSource.Mutation || source === IncrementalSource.Scroll || source === IncrementalSource.Input)
        moments.push({ kind: 'response', t });
      if (source === IncrementalSource.MouseInteraction && data.type === MouseInteractions.Click)
        moments.push({ kind: 'click', t, x: Number(data.x) || 0, y: Number(data.y) || 0 });
      if (source === IncrementalSource.Input && typeof data.id === 'number') moments.push({ kind: 'typed', t, id: data.id });
      if (source === IncrementalSource.Scroll && typeof data.id === 'number' && Number.isFinite(data.y))
        moments.push({ kind: 'scroll', t, id: data.id, y: Number(data.y) });
      return moments;
    }
    default:
      return [];
  }
}

/**
 * A click that focused its own element (mousedown focuses, the click follows within this long)
 * may be a click into a field: what is typed there is recorded only later (rrweb keeps the last
 * value), so such a click waits up to FIELD_TYPING_MS for input into that element.
 */
const FOCUS_BEFORE_CLICK_MS = DEAD_CLICK_MS;
const FIELD_TYPING_MS = 10_000;

/** The moments of a batch's events, in the events' order (ingest sorts a batch by time). */
export function factMoments(events: EventLike[]): Moment[] {
  const moments: Moment[] = [];
  let focus: { id: number; t: number } | null = null;
  for (const event of events) {
    const data = event.data as { source?: number; type?: number; id?: unknown } | null;
    const interaction = event.type === EventType.IncrementalSnapshot && data?.source === IncrementalSource.MouseInteraction ? data : null;
    for (const moment of momentsOf(event)) {
      if (moment.kind === 'click' && focus && interaction?.id === focus.id && moment.t - focus.t <= FOCUS_BEFORE_CLICK_MS) moment.field = focus.id;
      moments.push(moment);
    }
    if (interaction?.type === MouseInteractions.Focus && typeof interaction.id === 'number') focus = { id: interaction.id, t: event.timestamp };
  }
  return moments;
}

/** The facts of a session so far, and what the rules need to carry to the next batch. */
export interface SessionFacts extends PeopleFacts {
  activeMs: number;
  clickCount: number;
  rageClickCount: number;
  deadClickCount: number;
  errorCount: number;
  failedRequestCount: number;
  quickBackCount: number;
  excessiveScrollCount: number;
  /** Page paths in visit order, at most MAX_PAGES. */
  pages: string[];
  entryUrl: string | null;
  exitUrl: string | null;
  /** Carried: the last user input's time, for active time. */
  lastInputAt: number | null;
  /** Carried: clicks of the last second as [time, x, y, part of a rage click 0|1]. */
  recentClicks: [number, number, number, number][];
  /** Carried: times of clicks still waiting a second for the page to respond. */
  pendingClicks: number[];
  /** Carried: clicks that focused their element, [time, element id], waiting for a response or typing into it. */
  pendingFieldClicks: [number, number][];
  /** Carried: the last two pages, [path, time loaded], for quick backs. */
  pageTrail: [string, number][];
  /** Carried: the element scrolling, its direction (-1, 0, 1), the farthest y of the swing, and the recent reversals' times. */
  scrolling: Scrolling | null;
}

export const emptyFacts = (): SessionFacts => ({
  activeMs: 0,
  clickCount: 0,
  rageClickCount: 0,
  deadClickCount: 0,
  errorCount: 0,
  failedRequestCount: 0,
  quickBackCount: 0,
  excessiveScrollCount: 0,
  pages: [],
  entryUrl: null,
  exitUrl: null,
  lastInputAt: null,
  recentClicks: [],
  pendingClicks: [],
  pendingFieldClicks: [],
  pageTrail: [],
  scrolling: null,
  ...emptyPeople(),
});

/** What the replay page draws on its timeline; ingest only counts. */
export type FactMark = 'click' | 'rage' | 'dead' | 'error' | 'request' | 'page' | 'event';

const near = (a: [number, number, number, number], x: number, y: number) => Math.hypot(a[1] - x, a[2] - y) <= RAGE_RADIUS_PX;

/** A click: counted, checked for rage (once per burst), and left waiting for a response. */
function click(facts: SessionFacts, t: number, x: number, y: number, field: number | undefined, mark?: (kind: FactMark, t: number) => void): void {
  facts.clickCount++;
  mark?.('click', t);
  const recent = facts.recentClicks.filter((c) => t - c[0] <= RAGE_WINDOW_MS && t >= c[0]);
  const around = recent.filter((c) => near(c, x, y));
  const rage = around.length >= RAGE_CLICKS - 1;
  if (rage && !around.some((c) => c[3] === 1)) {
    facts.rageClickCount++;
    mark?.('rage', t);
  }
  recent.push([t, x, y, rage ? 1 : 0]);
  facts.recentClicks = recent.slice(-MAX_RECENT_CLICKS);
  if (field === undefined) facts.pendingClicks = [...facts.pendingClicks, t].slice(-MAX_RECENT_CLICKS);
  else facts.pendingFieldClicks = [...facts.pendingFieldClicks, [t, field] as [number, number]].slice(-MAX_RECENT_CLICKS);
}

/**
 * Clicks a second old with no response are dead; a response clears the ones before it. A click
 * that focused a field is also answered by typing into it within FIELD_TYPING_MS.
 */
function settle(facts: SessionFacts, moment: Moment, mark?: (kind: FactMark, t: number) => void): void {
  const dead = (at: number) => {
    facts.deadClickCount++;
    mark?.('dead', at);
  };
  const answered = (at: number) => moment.kind === 'response' && moment.t >= at && moment.t - at <= DEAD_CLICK_MS;
  if (facts.pendingClicks.length) {
    facts.pendingClicks = facts.pendingClicks.filter((at) => {
      if (moment.t - at > DEAD_CLICK_MS) return (dead(at), false);
      return !answered(at);
    });
  }
  if (facts.pendingFieldClicks.length) {
    facts.pendingFieldClicks = facts.pendingFieldClicks.filter(([at, id]) => {
      if (answered(at) || (moment.kind === 'typed' && moment.id === id && moment.t >= at && moment.t - at <= FIELD_TYPING_MS)) return false;
      if (moment.t - at > FIELD_TYPING_MS) return (dead(at), false);
      return true;
    });
  }
}

function input(facts: SessionFacts, t: number): void {
  const last = facts.lastInputAt;
  if (last !== null && t > last && t - last <= INACTIVITY_MS) facts.activeMs += t - last;
  if (last === null || t > last) facts.lastInputAt = t;
}

function page(facts: SessionFacts, path: string, t: number): void {
  facts.entryUrl ??= path;
  facts.exitUrl = path;
  if (facts.pages.length < MAX_PAGES) facts.pages = [...facts.pages, path];
  quickBack(facts, path, t);
}

/**
 * Folds moments (in time order) into the facts: a new object, the old one untouched. `mark`
 * hears each click, rage click, dead click, error, failed request, page and page event as it is found.
 */
export function foldFacts(previous: SessionFacts, moments: Moment[], mark?: (kind: FactMark, t: number) => void): SessionFacts {
  const facts: SessionFacts = { ...previous };
  for (const moment of moments) {
    settle(facts, moment, mark);
    switch (moment.kind) {
      case 'input':
        input(facts, moment.t);
        break;
      case 'click':
        click(facts, moment.t, moment.x, moment.y, moment.field, mark);
        break;
      case 'page':
        page(facts, moment.path, moment.t);
        mark?.('page', moment.t);
        break;
      case 'error':
        facts.errorCount++;
        mark?.('error', moment.t);
        break;
      case 'request':
        facts.failedRequestCount++;
        mark?.('request', moment.t);
        break;
      case 'identify':
        // The last id wins (a visitor who signs in as someone else is that someone from then on); traits merge.
        facts.userId = moment.userId;
        for (const [key, value] of Object.entries(moment.traits)) facts.traits = boundedSet(facts.traits, key, value);
        break;
      case 'event':
        facts.events = boundedSet(facts.events, moment.name, (Object.hasOwn(facts.events, moment.name) ? facts.events[moment.name] : 0) + 1, EVENT_NAMES_MAX);
        mark?.('event', moment.t);
        break;
      case 'tag':
        facts.tags = boundedSet(facts.tags, moment.key, moment.value);
        break;
      case 'scroll':
        scroll(facts, moment.id, moment.y, moment.t);
        break;
      case 'response':
      case 'typed':
        break;
    }
  }
  return facts;
}

/** The facts of a whole recording, with each mark's time: what the replay page shows. */
export function sessionFacts(events: EventLike[]): { facts: SessionFacts; marks: { kind: FactMark; t: number }[] } {
  const marks: { kind: FactMark; t: number }[] = [];
  const sorted = events.slice().sort((a, b) => a.timestamp - b.timestamp);
  const facts = foldFacts(emptyFacts(), factMoments(sorted), (kind, t) => marks.push({ kind, t }));
  return { facts, marks };
}

/** What a session carries from one batch to the next beside its counts: bounded, stored as JSON. */
export type CarriedFacts = Pick<SessionFacts, 'lastInputAt' | 'recentClicks' | 'pendingClicks' | 'pendingFieldClicks' | 'pageTrail' | 'scrolling'>;

export const carriedFacts = ({ lastInputAt, recentClicks, pendingClicks, pendingFieldClicks, pageTrail, scrolling }: SessionFacts): string =>
  JSON.stringify({ lastInputAt, recentClicks, pendingClicks, pendingFieldClicks, pageTrail, scrolling });

/** The carried state as stored, read back defensively: a bad value starts afresh. */
export function readCarried(json: string | null | undefined): CarriedFacts {
  const empty = { lastInputAt: null, recentClicks: [], pendingClicks: [], pendingFieldClicks: [], pageTrail: [], scrolling: null };
  if (!json) return empty;
  try {
    const value = JSON.parse(json) as Partial<CarriedFacts>;
    return {
      lastInputAt: typeof value.lastInputAt === 'number' ? value.lastInputAt : null,
      recentClicks: Array.isArray(value.recentClicks) ? value.recentClicks.slice(-MAX_RECENT_CLICKS) : [],
      pendingClicks: Array.isArray(value.pendingClicks) ? value.pendingClicks.slice(-MAX_RECENT_CLICKS) : [],
      pendingFieldClicks: Array.isArray(value.pendingFieldClicks) ? value.pendingFieldClicks.slice(-MAX_RECENT_CLICKS) : [],
      pageTrail: Array.isArray(value.pageTrail) ? value.pageTrail.slice(-2) : [],
      scrolling: isScrolling(value.scrolling) ? { ...value.scrolling, turns: value.scrolling.turns.slice(-SCROLL_REVERSALS) } : null,
    };
  } catch {
    return empty;
  }
}
