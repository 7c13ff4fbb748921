// Heatmaps' shared rules: what a click record holds (the tracker sends it, ingest bounds it),
// the position bins (heatmaps are split by viewport class: common/devices.ts) and the owner's page patterns.

import { globRegExp } from './path-glob.js';

/** A click record's page path, selector path and text are cut to these lengths. */
export const PATH_MAX = 300;
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

/** The owner's page patterns: at most this many per campaign, each at most PATTERN_MAX characters. */
export const MAX_PATTERNS = 50;
export const PATTERN_MAX = 200;

/** Why a page pattern is refused, or null: a path starting with "/", where "*" stands for any run of characters. */
export function patternFlaw(pattern: string): string | null {
  if (!pattern.startsWith('/')) return 'A page pattern starts with "/"';
  if (pattern.length > PATTERN_MAX) return `A page pattern has at most ${PATTERN_MAX} characters`;
  if (/[?#\s]/.test(pattern)) return 'A page pattern is a path: no query, fragment or spaces';
  return null;
}

/** The page a path counts under: the first pattern it matches, else the path itself. */
export function pageOf(path: string, patterns: string[]): string {
  for (const pattern of patterns) if (pattern.includes('*') ? globRegExp(pattern).test(path) : pattern === path) return pattern;
  return path;
}
