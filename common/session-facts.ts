// The facts a session's events tell — active time, pages, clicks, rage clicks, dead clicks,
// quick backs, excessive scrolling, errors, failed requests — by one set of rules, used where ingest stores them on the session
// row (a batch at a time, with a small carried state) and where the replay page marks its
// timeline (all events at once).
//
// Two steps, so ingest can run the heavy one where the batch is parsed (a worker thread):
// factMoments() reduces a batch's events to the few moments the rules look at, and
// foldFacts() folds moments into the carried state, in time order, batch after batch.

import { boundedSet, emptyPeople, EVENT_NAMES_MAX, type PeopleFacts } from './people.js';
import { quickBack, scroll, type Scrolling } from './frustration-rules.js';
import { joinRuns, type IdRuns } from './id-runs.js';
import { factMoments, type EventLike, type Moment } from './fact-moments.js';
import { DEAD_CLICK_MS } from './limits.js';

export { factMoments, hasHumanInput, pathOf, type Moment } from './fact-moments.js';

/** rrweb's inactivity gap: more than 10 s between human inputs is inactive time. */
export const INACTIVITY_MS = 10_000;
/** Rage clicks: at least RAGE_CLICKS clicks within RAGE_WINDOW_MS, each within RAGE_RADIUS_PX of the last. */
export const RAGE_CLICKS = 3;
export const RAGE_WINDOW_MS = 1000;
export const RAGE_RADIUS_PX = 30;
/** Pages kept on the session row (the count goes on). */
export const MAX_PAGES = 50;
/** Page titles and clicked texts a session's search terms take (server/sessions/search-terms.ts): the first ones. */
export const MAX_SEARCH_TEXTS = 30;
/** Clicks the carried state keeps for the rage and dead rules: bounded whatever a page does. */
export const MAX_RECENT_CLICKS = 20;

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
  /** Carried: the last two pages, [path, time loaded], for quick backs. */
  pageTrail: [string, number][];
  /** Carried: the element scrolling, its direction (-1, 0, 1), the farthest y of the swing, and the recent reversals' times. */
  scrolling: Scrolling | null;
  /** Carried: the last page loaded is one the campaign does not record (ingest drops what follows until a recorded one). */
  onUnrecordedPage: boolean;
  /** Carried: the page's blocked nodes as id runs, bounded (ingest cuts later mutations under them). */
  blockedRuns: IdRuns;
  /** Page titles and clicked texts this fold found, for the search terms (not carried: the terms are kept). */
  searchTexts: string[];
  /** Carried: how many search texts the session took so far, at most MAX_SEARCH_TEXTS. */
  searchTextCount: number;
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
  pageTrail: [],
  scrolling: null,
  onUnrecordedPage: false,
  blockedRuns: [],
  searchTexts: [],
  searchTextCount: 0,
  ...emptyPeople(),
});

/** What the replay page draws on its timeline; ingest only counts. */
export type FactMark = 'click' | 'rage' | 'dead' | 'error' | 'request' | 'page' | 'event' | 'quickBack' | 'scrolling';
/** What folding a batch found, in order: the heatmaps' verdicts on its clicks come from these. */
export type FactMarks = { kind: FactMark; t: number }[];
/** A `mark` callback that keeps every mark in `marks`. */
export const keepingMarks = (marks: FactMarks) => (kind: FactMark, t: number) => void marks.push({ kind, t });

const near = (a: [number, number, number, number], x: number, y: number) => Math.hypot(a[1] - x, a[2] - y) <= RAGE_RADIUS_PX;

/** A click: counted, checked for rage (once per burst), and (unless into a text field) left waiting for a response. */
function click(facts: SessionFacts, t: number, x: number, y: number, field: boolean | undefined, mark?: (kind: FactMark, t: number) => void): void {
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
  // A text field answers with its caret, which no recording shows; what is typed there comes when it comes.
  if (!field) facts.pendingClicks = [...facts.pendingClicks, t].slice(-MAX_RECENT_CLICKS);
}

/**
 * Clicks a second old with no response are dead; a response clears the ones before it. The page
 * going away is a moment too (the tracker's tapedeck/hidden), so a visit's last click is judged.
 */
function settle(facts: SessionFacts, moment: Moment, mark?: (kind: FactMark, t: number) => void): void {
  // Plain loops, no closures: this runs for every moment of every batch (twice), and the
  // server's TypeScript loader wraps each named closure in a helper call that cost ingest ~5%.
  if (!facts.pendingClicks.length) return;
  const kept: number[] = [];
  for (const at of facts.pendingClicks) {
    if (moment.t - at > DEAD_CLICK_MS) deadClick(facts, at, mark);
    else if (!answered(moment, at)) kept.push(at);
  }
  facts.pendingClicks = kept;
}

function deadClick(facts: SessionFacts, at: number, mark?: (kind: FactMark, t: number) => void): void {
  facts.deadClickCount++;
  mark?.('dead', at);
}

const answered = (moment: Moment, at: number): boolean => moment.kind === 'response' && moment.t >= at && moment.t - at <= DEAD_CLICK_MS;

function input(facts: SessionFacts, t: number): void {
  const last = facts.lastInputAt;
  if (last !== null && t > last && t - last <= INACTIVITY_MS) facts.activeMs += t - last;
  if (last === null || t > last) facts.lastInputAt = t;
}

function page(facts: SessionFacts, path: string, t: number, mark?: (kind: FactMark, t: number) => void): void {
  facts.entryUrl ??= path;
  facts.exitUrl = path;
  facts.onUnrecordedPage = false;
  if (facts.pages.length < MAX_PAGES) facts.pages = [...facts.pages, path];
  mark?.('page', t);
  if (quickBack(facts, path, t)) mark?.('quickBack', t);
}

/** A title or clicked text for the search, once per fold and while the session has room for it. */
function searchText(facts: SessionFacts, text: string): void {
  if (facts.searchTextCount >= MAX_SEARCH_TEXTS || facts.searchTexts.includes(text)) return;
  facts.searchTexts = [...facts.searchTexts, text];
  facts.searchTextCount++;
}

/**
 * Folds moments (in time order) into the facts: a new object, the old one untouched. `mark`
 * hears each click, rage click, dead click, error, failed request, page, quick back, burst of
 * excessive scrolling and page event as it is found.
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
        page(facts, moment.path, moment.t, mark);
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
        if (scroll(facts, moment.id, moment.y, moment.t)) mark?.('scrolling', moment.t);
        break;
      case 'unrecorded':
        facts.onUnrecordedPage = true;
        break;
      case 'blocked':
        facts.blockedRuns = moment.reset ? moment.runs : joinRuns(facts.blockedRuns, moment.runs);
        break;
      case 'text':
        searchText(facts, moment.text);
        break;
      case 'response':
        break;
    }
  }
  return facts;
}

/** The facts of a whole recording, with each mark's time: what the replay page shows. */
export function sessionFacts(events: EventLike[]): { facts: SessionFacts; marks: FactMarks } {
  const marks: FactMarks = [];
  const sorted = events.slice().sort((a, b) => a.timestamp - b.timestamp);
  const facts = foldFacts(emptyFacts(), factMoments(sorted), keepingMarks(marks));
  return { facts, marks };
}
