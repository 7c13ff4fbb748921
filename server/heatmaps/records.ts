// The heatmap records of a batch (common/captured.ts: tapedeck/click and tapedeck/scroll), taken
// where the batch is parsed (pack.ts, maybe a worker thread) so the aggregation that runs
// after the batch is stored never reads events again.
import { CAPTURED_TAGS } from '../../common/captured.js';

export interface ClickRecord {
  kind: 'click';
  t: number;
  /** Page path, selector path, short text. */
  p: string;
  s: string;
  text: string;
  fx: number;
  fy: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ScrollRecord {
  kind: 'scroll';
  t: number;
  p: string;
  d: number;
  w: number;
  h: number;
  /** The first record of a page view. */
  view: boolean;
}

export type HeatRecord = ClickRecord | ScrollRecord;

/** A batch sends at most this many heat records on (a page that clicks itself in a loop is still bounded). */
export const MAX_HEAT_RECORDS = 500;

interface EventLike {
  type: number;
  data: unknown;
  timestamp: number;
}

/** The batch's heat records, in its events' order; the schema (common/ingest-batch.ts) checked their shape. */
export function heatRecords(events: EventLike[]): HeatRecord[] {
  const records: HeatRecord[] = [];
  for (const event of events) {
    if (event.type !== 5 || records.length >= MAX_HEAT_RECORDS) continue;
    const { tag, payload } = event.data as { tag?: unknown; payload?: object };
    if (!payload) continue;
    const t = event.timestamp;
    if (tag === CAPTURED_TAGS.click) {
      const {
        p,
        s,
        t: text,
        fx,
        fy,
        x,
        y,
        w,
        h,
      } = payload as unknown as { p: string; s: string; t: string; fx: number; fy: number; x: number; y: number; w: number; h: number };
      records.push({ kind: 'click', t, p, s, text, fx, fy, x, y, w, h });
    } else if (tag === CAPTURED_TAGS.scroll) {
      const { p, d, w, h, v } = payload as unknown as { p: string; d: number; w: number; h: number; v?: number };
      records.push({ kind: 'scroll', t, p, d, w, h, view: v === 1 });
    }
  }
  return records;
}
