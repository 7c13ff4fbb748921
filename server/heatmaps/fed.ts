// What one session feeds one page's heatmap (per device class and day), and the rules that
// turn a batch's heat records into it. The click verdicts are the session facts' own (the marks
// the recordings' fold of the batch found: common/session-facts.ts's rage and dead clicks), so a
// heatmap's rage layer and the sessions list's "rage clicks" agree.
import type { FactMarks } from '../../common/session-facts.js';
import { binOf, SCROLL_STEP } from '../../common/heatmaps.js';
import { viewportClass, type ViewportClass } from '../../common/devices.js';
import type { HeatRecord } from './records.js';

/** A click followed by an error within this long counts in the "followed by an error" layer. */
export const ERROR_AFTER_CLICK_MS = 5_000;
/** A session feeds at most this many elements and bins to one page, device class and day. */
export const MAX_FED_ELEMENTS = 30;
export const MAX_FED_BINS = 300;
/** How far to match a click record to rrweb's own click (both come from one DOM event). */
const SAME_CLICK_MS = 100;
/** Clicks remembered for verdicts that come later (an error within 5 s; a dead click with the next moment after its second). */
const REMEMBER_MS = 11_000;
const MAX_REMEMBERED = 40;

/** Counts per layer: all clicks, rage, dead, followed by an error. */
export type Layers = [number, number, number, number];
export const LAYER = { all: 0, rage: 1, dead: 2, error: 3 } as const;

/** One element's share: its text, the layers' counts, and the sums of where in it clicks landed (thousandths). */
export interface FedElement {
  text: string;
  layers: Layers;
  fx: number;
  fy: number;
  /** The session's first click on it: where its replay opens. */
  at: number;
}

export interface Fed {
  views: number;
  /** Sum of the views' folds (percent). */
  fold: number;
  layers: Layers;
  elements: Record<string, FedElement>;
  bins: Record<string, Layers>;
  /** Views that reached each depth: index i is depth i × SCROLL_STEP. */
  scroll: number[];
  /** The last moment the session was on the page: where the heatmap's picture is rebuilt. */
  lastAt: number;
}

export const emptyFed = (): Fed => ({ views: 0, fold: 0, layers: [0, 0, 0, 0], elements: {}, bins: {}, scroll: [], lastAt: 0 });

/** Where a session's heat goes: the page path as the visitor saw it (patterns apply when stored), device class, day. */
export interface FedKey {
  path: string;
  device: ViewportClass;
  day: number;
}

export const dayOf = (t: number): number => Math.floor(t / 86_400_000);

interface Remembered extends FedKey {
  t: number;
  /** rrweb's click this record is, by its time: what the verdicts name. */
  clickAt: number | null;
  selector: string;
  bin: number;
  errored: boolean;
}

/** What a session carries from batch to batch, in memory (bounded). */
export interface SessionHeat {
  remembered: Remembered[];
  /** The deepest tenth seen on the current view of each path. */
  depth: Map<string, number>;
}

export const newSessionHeat = (): SessionHeat => ({ remembered: [], depth: new Map() });

/** The batch's contributions, by key; `feed(key)` hands out (and creates) each key's delta. */
export type Feed = (key: FedKey) => Fed;

/** One more click in a layer: on the page, its element and its bin (each kept while under its cap). */
function bump(fed: Fed, clicked: { selector: string; bin: number; t: number }, layer: number): void {
  fed.layers[layer]++;
  const element =
    fed.elements[clicked.selector] ??
    (Object.keys(fed.elements).length < MAX_FED_ELEMENTS
      ? (fed.elements[clicked.selector] = { text: '', layers: [0, 0, 0, 0], fx: 0, fy: 0, at: clicked.t })
      : undefined);
  if (element) element.layers[layer]++;
  const key = String(clicked.bin);
  if (fed.bins[key]) fed.bins[key][layer]++;
  else if (Object.keys(fed.bins).length < MAX_FED_BINS) (fed.bins[key] = [0, 0, 0, 0])[layer]++;
}

function click(feed: Feed, state: SessionHeat, record: Extract<HeatRecord, { kind: 'click' }>, clickAt: number | null): void {
  const clicked: Remembered = {
    path: record.p,
    device: viewportClass(record.w),
    day: dayOf(record.t),
    t: record.t,
    clickAt,
    selector: record.s,
    bin: binOf(record.x, record.y, record.w),
    errored: false,
  };
  const fed = feed(clicked);
  bump(fed, clicked, LAYER.all);
  const element = fed.elements[record.s];
  if (element) {
    element.text = record.text;
    element.fx += Math.round(record.fx * 1000);
    element.fy += Math.round(record.fy * 1000);
  }
  fed.lastAt = Math.max(fed.lastAt, record.t);
  state.remembered.push(clicked);
}

function scroll(feed: Feed, state: SessionHeat, record: Extract<HeatRecord, { kind: 'scroll' }>): void {
  const fed = feed({ path: record.p, device: viewportClass(record.w), day: dayOf(record.t) });
  const previous = record.view ? -SCROLL_STEP : (state.depth.get(record.p) ?? record.d - SCROLL_STEP);
  if (record.view) {
    fed.views++;
    fed.fold += record.d;
  }
  for (let depth = previous + SCROLL_STEP; depth <= record.d; depth += SCROLL_STEP) {
    const i = depth / SCROLL_STEP;
    while (fed.scroll.length <= i) fed.scroll.push(0);
    fed.scroll[i]++;
  }
  if (record.d > previous) state.depth.set(record.p, record.d);
  if (state.depth.size > 50) state.depth.delete(state.depth.keys().next().value as string);
  fed.lastAt = Math.max(fed.lastAt, record.t);
}

/** The index of rrweb's click nearest `t` (within SAME_CLICK_MS), or -1. */
function nearestClick(clicks: number[], t: number): number {
  let best = -1;
  for (let i = 0; i < clicks.length; i++) {
    if (Math.abs(clicks[i] - t) <= SAME_CLICK_MS && (best < 0 || Math.abs(clicks[i] - t) < Math.abs(clicks[best] - t))) best = i;
  }
  return best;
}

/**
 * One batch of a session: its heat records (pack.ts) and the marks the recordings' fold
 * of its moments found, into the session's carried state; each contribution goes to `feed`. A
 * verdict on a click of an earlier batch (a dead click is known a second later) feeds that
 * click's key.
 */
export function heatOfBatch(state: SessionHeat, marks: FactMarks, records: HeatRecord[], feed: Feed): void {
  const clicks: number[] = [];
  for (const mark of marks) if (mark.kind === 'click') clicks.push(mark.t);
  for (const record of records) {
    if (record.kind === 'scroll') scroll(feed, state, record);
    else {
      const best = nearestClick(clicks, record.t);
      click(feed, state, record, best < 0 ? null : clicks.splice(best, 1)[0]);
    }
  }
  for (const mark of marks) {
    if (mark.kind === 'rage' || mark.kind === 'dead') {
      const clicked = state.remembered.find((r) => r.clickAt === mark.t);
      if (clicked) bump(feed(clicked), clicked, mark.kind === 'rage' ? LAYER.rage : LAYER.dead);
    } else if (mark.kind === 'error') {
      for (const clicked of state.remembered) {
        if (clicked.errored || clicked.t > mark.t || mark.t - clicked.t > ERROR_AFTER_CLICK_MS) continue;
        clicked.errored = true;
        bump(feed(clicked), clicked, LAYER.error);
      }
    }
  }
  let latest = 0;
  for (const { t } of marks) latest = Math.max(latest, t);
  for (const { t } of records) latest = Math.max(latest, t);
  forgetOld(state.remembered, latest);
}

/** Keeps, in place, the clicks of the last REMEMBER_MS before `latest`, at most MAX_REMEMBERED of them. */
function forgetOld(remembered: Remembered[], latest: number): void {
  let kept = 0;
  for (const r of remembered) if (latest - r.t <= REMEMBER_MS) remembered[kept++] = r;
  remembered.length = kept;
  if (kept > MAX_REMEMBERED) remembered.splice(0, kept - MAX_REMEMBERED);
}

/** Two contributions added (or, with sign -1, one taken from the other), into `into`. */
export function addFed(into: Fed, fed: Fed, sign = 1): Fed {
  into.views += sign * fed.views;
  into.fold += sign * fed.fold;
  fed.layers.forEach((n, i) => (into.layers[i] += sign * n));
  for (const [selector, element] of Object.entries(fed.elements)) {
    const mine = (into.elements[selector] ??= { text: element.text, layers: [0, 0, 0, 0], fx: 0, fy: 0, at: element.at });
    if (element.text) mine.text = element.text;
    element.layers.forEach((n, i) => (mine.layers[i] += sign * n));
    mine.fx += sign * element.fx;
    mine.fy += sign * element.fy;
    mine.at = Math.min(mine.at, element.at);
  }
  for (const [bin, layers] of Object.entries(fed.bins)) {
    const mine = (into.bins[bin] ??= [0, 0, 0, 0]);
    layers.forEach((n, i) => (mine[i] += sign * n));
  }
  fed.scroll.forEach((n, i) => {
    while (into.scroll.length <= i) into.scroll.push(0);
    into.scroll[i] += sign * n;
  });
  into.lastAt = Math.max(into.lastAt, fed.lastAt);
  return into;
}

/** A stored contribution read back defensively: a bad value feeds nothing. */
export function readFed(json: string): Fed {
  try {
    const value = JSON.parse(json) as Partial<Fed>;
    return { ...emptyFed(), ...value };
  } catch {
    return emptyFed();
  }
}
