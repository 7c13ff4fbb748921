// Funnel rules, shared by the server (which counts a funnel's sessions) and its tests: plain
// values, no schemas. A funnel is ordered steps and a window: a session reaches step N when it
// did steps 1…N in that order (later positions of its visits), the Nth no later than `withinMs`
// after the first. Page-only funnels are matched on the session's page visits (session_pages);
// a funnel with a click or event step on everything the session did (session_visits).

import { addHistograms, histogramMedian, timeBin } from './insights.js';
import { pagePattern } from './page-pattern.js';

export const MAX_FUNNEL_STEPS = 10;
export const MAX_FUNNELS_PER_CAMPAIGN = 50;
export const MAX_FUNNEL_NAME = 100;
export const MAX_STEP_CHARS = 300;
/** A funnel's window when none is given: a day (a session rarely lasts longer). */
export const DEFAULT_FUNNEL_WITHIN_MS = 86_400_000;
export const MAX_FUNNEL_WITHIN_MS = 90 * 86_400_000;
/** Clicks and custom events a session keeps for funnels (its pages: common/session-facts.ts MAX_PAGES). */
export const MAX_CLICK_VISITS = 200;
export const MAX_EVENT_VISITS = 100;

/** A page step is a page pattern (common/page-pattern.ts). */
export type FunnelStep = { page: string } | { click: string } | { event: string };

/**
 * One thing a session did, in order: a page it loaded (its path), an element it clicked (its
 * selector path, and its short text), or a custom event the page sent (its name), at a time.
 */
export interface Visit {
  kind: 'page' | 'click' | 'event';
  value: string;
  text?: string;
  at: number;
}

const kindOf = (step: FunnelStep): Visit['kind'] => ('page' in step ? 'page' : 'click' in step ? 'click' : 'event');
const valueOf = (step: FunnelStep): string => ('page' in step ? step.page : 'click' in step ? step.click : step.event);

/**
 * Whether a visit is the step. A click step is the clicked element's selector path (`#add`) or
 * its text as recorded (`Add to cart`: trimmed, spaces collapsed, first 60 characters), whole and
 * case-sensitive; an event step is the event's name, whole and case-sensitive.
 */
export function stepMatcher(step: FunnelStep): (visit: Visit) => boolean {
  const kind = kindOf(step);
  if (kind === 'page') {
    const matches = pagePattern(valueOf(step));
    return (visit) => visit.kind === 'page' && matches(visit.value);
  }
  const value = valueOf(step);
  if (kind === 'click') return (visit) => visit.kind === 'click' && (visit.value === value || visit.text === value);
  return (visit) => visit.kind === kind && visit.value === value;
}

/** Whether the funnel has a click or event step, so is matched on session_visits rather than session_pages. */
export const needsVisits = (steps: FunnelStep[]): boolean => steps.some((step) => !('page' in step));

/** How far a session got (server/funnels/progress.ts). */
export interface Progress {
  /** How many steps the session reached, 0 to steps.length. */
  reached: number;
  /** When it did each step reached. */
  times: number[];
}

export interface StepResult {
  sessions: number;
  /** Share of the sessions that entered step 1 (1 for step 1 when any did). */
  conversion: number;
  /** Sessions that reached the step before but not this one (0 for step 1). */
  droppedOff: number;
  /** Median time from the step before, over the sessions that reached this one; null for step 1 or none. */
  medianMsFromPrevious: number | null;
}

/**
 * A funnel over some sessions, in a form that adds up (a day's is kept, a range's is the sum of
 * its days'): the sessions that reached each step, and the times from the step before as a
 * histogram (common/insights.ts timeBin).
 */
export interface Tally {
  reached: number[];
  gaps: [number, number][][];
}

export function tally(progresses: Progress[], stepCount: number): Tally {
  const reached = Array.from({ length: stepCount }, (_, i) => progresses.filter((p) => p.reached > i).length);
  const gaps = Array.from({ length: stepCount }, (_, i) => {
    const bins = new Map<number, number>();
    if (i > 0)
      for (const p of progresses) if (p.reached > i) bins.set(timeBin(p.times[i] - p.times[i - 1]), (bins.get(timeBin(p.times[i] - p.times[i - 1])) ?? 0) + 1);
    return [...bins].sort((a, b) => a[0] - b[0]);
  });
  return { reached, gaps };
}

export function addTallies(tallies: Tally[], stepCount: number): Tally {
  return {
    reached: Array.from({ length: stepCount }, (_, i) => tallies.reduce((sum, t) => sum + (t.reached[i] ?? 0), 0)),
    gaps: Array.from({ length: stepCount }, (_, i) => addHistograms(tallies.map((t) => t.gaps[i] ?? []))),
  };
}

/** Each step's sessions, conversion from the first, drop-off and median time from the step before. */
export function stepsOf({ reached, gaps }: Tally): StepResult[] {
  const entered = reached[0] ?? 0;
  return reached.map((sessions, i) => ({
    sessions,
    conversion: entered ? Math.round((sessions / entered) * 10_000) / 10_000 : 0,
    droppedOff: i === 0 ? 0 : reached[i - 1] - sessions,
    medianMsFromPrevious: i === 0 || !sessions ? null : histogramMedian(gaps[i]),
  }));
}

/** A funnel's steps over sessions' progress. */
export function funnelSteps(progresses: Progress[], stepCount: number): StepResult[] {
  return stepsOf(tally(progresses, stepCount));
}
