import { MAX_SEQ } from './limits.js';

// The batches (by seq) a live replay's client holds: every seq up to the highest it got, less the
// gaps below it, where a batch sent late may still arrive. Written as `after=9,3,5-6` (the highest,
// then the missing seqs and ranges, ascending), so a stream resumes with exactly what is lacking.

export interface HeldBatches {
  /** The highest seq held; -1 when none. */
  last: number;
  /** Missing seq ranges [from, to] below `last`, ascending, apart. */
  gaps: [number, number][];
}

/** Gaps kept at most: a batch later than this many others is left to the full replay. */
export const MAX_GAPS = 16;

export const NONE_HELD: HeldBatches = { last: -1, gaps: [] };

/** Whether the seq is held. */
export function holds(held: HeldBatches, seq: number): boolean {
  return seq <= held.last && !held.gaps.some(([from, to]) => seq >= from && seq <= to);
}

/** The newest MAX_GAPS gaps: an older one is given up (counted as held). */
const capped = (gaps: [number, number][]) => gaps.slice(-MAX_GAPS);

/** What is held once this batch is in too. */
export function withBatch(held: HeldBatches, seq: number): HeldBatches {
  if (holds(held, seq)) return held;
  if (seq > held.last) {
    const gaps: [number, number][] = seq > held.last + 1 ? [...held.gaps, [held.last + 1, seq - 1]] : held.gaps;
    return { last: seq, gaps: capped(gaps) };
  }
  // A late batch: its gap splits around it (an end of the gap just shrinks it).
  const gaps = held.gaps.flatMap(([from, to]): [number, number][] =>
    seq < from || seq > to
      ? [[from, to]]
      : [
          [from, seq - 1],
          [seq + 1, to],
        ],
  );
  return { last: held.last, gaps: gaps.filter(([from, to]) => from <= to) };
}

/** What a list of stored seqs holds (any order). */
export const heldOf = (seqs: Iterable<number>) => [...seqs].sort((a, b) => a - b).reduce(withBatch, NONE_HELD);

/** `9,3,5-6`; '' when nothing is held. */
export function formatHeld(held: HeldBatches): string {
  if (held.last < 0) return '';
  return [held.last, ...held.gaps.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`))].join(',');
}

/** Seqs in decimal without leading zeros, joined by ',' (a gap range by '-'). */
const HELD_TEXT = /^(0|[1-9]\d{0,9})(,(0|[1-9]\d{0,9})(-(0|[1-9]\d{0,9}))?)*$/;

/** The held batches a `formatHeld` text says, or null for anything else (out of order, overlapping, too many gaps). */
export function parseHeld(text: string): HeldBatches | null {
  if (text === '') return NONE_HELD;
  if (!HELD_TEXT.test(text)) return null;
  const [head, ...rest] = text.split(',');
  const last = Number(head);
  if (last > MAX_SEQ || rest.length > MAX_GAPS) return null;
  const gaps: [number, number][] = [];
  let floor = 0;
  for (const part of rest) {
    const [from, to = from] = part.split('-').map(Number);
    if (from < floor || to < from || to >= last) return null;
    gaps.push([from, to]);
    floor = to + 2; // apart: touching gaps would be one
  }
  return { last, gaps };
}
