import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { info, postBatch } from './ingest-support.js';

// Heat as the tracker sends it (shared by the heatmaps tests): page loads, clicks with their
// click records, scroll records, and one visit to a page.

export const meta = (t: number, path: string, width: number) => ({
  type: 4,
  data: { href: `https://shop.example.com${path}`, width, height: 800 },
  timestamp: t,
});
export const full = (t: number) => ({ type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: t });
export const rrwebClick = (t: number, x: number, y: number) => ({ type: 3, data: { source: 2, type: 2, id: 5, x, y }, timestamp: t });
export const mutation = (t: number) => ({ type: 3, data: { source: 0, adds: [], removes: [], texts: [], attributes: [] }, timestamp: t });
export const move = (t: number) => ({ type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] }, timestamp: t });
export const clickRecord = (t: number, path: string, s: string, text: string, w: number) => ({
  type: 5,
  data: { tag: 'tapedeck/click', payload: { p: path, s, t: text, fx: 0.5, fy: 0.5, x: 200, y: 400, w, h: 1600 } },
  timestamp: t + 1,
});
export const view = (t: number, path: string, w: number, d = 50) => ({
  type: 5,
  data: { tag: 'tapedeck/scroll', payload: { p: path, d, w, h: 1600, v: 1 } },
  timestamp: t,
});
export const clicks = (t: number, path: string, s: string, text: string, w: number) => [rrwebClick(t, 200, 400), clickRecord(t, path, s, text, w)];

export interface Visit {
  id: string;
  width: number;
  path?: string;
  /** Clicks on the button, ms after the start; then, maybe, a dead click on a label. */
  at: number[];
  deadLabel?: boolean;
  /** What the first batch says of the browser (webdriver: true makes a bot). */
  info?: Record<string, unknown>;
  /** Events sent with the first batch besides the page's (an identify, an event). */
  extra?: (t: number) => { type: number; data: object; timestamp: number }[];
}

/** One visit to a page: its load, clicks, maybe a dead click, and a later batch that settles the verdicts. */
export async function visitPage(server: TestServer, campaignId: string, v: Visit, start = Date.now() - 60_000): Promise<void> {
  const path = v.path ?? '/product/1';
  const events: { type: number; data: object; timestamp: number }[] = [meta(start, path, v.width), full(start + 1), view(start + 2, path, v.width)];
  events.push(...(v.extra?.(start + 3) ?? []));
  for (const t of v.at) events.push(...clicks(start + t, path, '#add', 'Add to cart', v.width));
  events.push(mutation(start + Math.max(...v.at) + 100));
  if (v.deadLabel) events.push(...clicks(start + 20_000, path, 'form>label:nth-of-type(2)', 'Size', v.width));
  const first = await postBatch(server, campaignId, { sessionId: v.id, seq: 0, info: info({ url: `https://shop.example.com${path}`, ...v.info }), events });
  expect(first.status).toBe(200);
  const second = await postBatch(server, campaignId, { sessionId: v.id, seq: 1, events: [move(start + 25_000)] });
  expect(second.status).toBe(200);
}
