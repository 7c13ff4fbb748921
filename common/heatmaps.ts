// Heatmaps' shared rules: what a click record holds (the tracker sends it, ingest bounds it),
// the position bins (heatmaps are split by viewport class: common/devices.ts) and the owner's page patterns.

import { MAX_PAGE_PATH, pagePattern } from './page-pattern.js';

/** A click record's page path, selector path and text are cut to these lengths. */
export const PATH_MAX = MAX_PAGE_PATH;
export const SELECTOR_MAX = 500;
export const CLICK_TEXT_MAX = 60;
/** Positions and sizes in CSS pixels are bounded by this (the tracker clamps to it). */
export const MAX_PAGE_PX = 1_000_000;

/** Position bins: the viewport's width in BIN_COLUMNS columns, the page's height in rows of BIN_ROW_PX, down to MAX_BIN_ROWS rows. */
export const BIN_COLUMNS = 40;
export const BIN_ROW_PX = 40;
export const MAX_BIN_ROWS = 250;

/** A click's bin number (row × BIN_COLUMNS + column), from its page position and the viewport's width. */
export function binOf(x: number, y: number, width: number): number {
  const column = Math.min(BIN_COLUMNS - 1, Math.max(0, Math.floor((x / Math.max(1, width)) * BIN_COLUMNS)));
  const row = Math.min(MAX_BIN_ROWS - 1, Math.max(0, Math.floor(y / BIN_ROW_PX)));
  return row * BIN_COLUMNS + column;
}

/** Scroll depths are counted in tenths of the page: 0, 10, … 100 percent. */
export const SCROLL_STEP = 10;

/** The owner's page patterns (common/page-pattern.ts): at most this many per campaign. */
export const MAX_PATTERNS = 50;

/** The page a path counts under: the first of the patterns it matches, else the path itself. */
export function pageUnder(patterns: string[]): (path: string) => string {
  const tests = patterns.map((pattern) => ({ pattern, fits: pagePattern(pattern) }));
  return (path) => tests.find(({ fits }) => fits(path))?.pattern ?? path;
}
