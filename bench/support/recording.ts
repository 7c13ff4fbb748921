// A realistic recorded session for the figures: the committed real demo recording
// (server/replay/demo/*.json.gz), repeated with shifted timestamps to reach any event count.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { ReplayEvent } from '../../common/api-types.js';
import { FLUSH_EVENTS, FLUSH_TICKS, TICK_MS } from '../../common/limits.js';

const demoDir = path.resolve(import.meta.dirname, '..', '..', 'server', 'replay', 'demo');

/** The demo recording's events, in timestamp order (BENCH_RECORDING may name another .json.gz). */
export function demoEvents(): ReplayEvent[] {
  const file = process.env.BENCH_RECORDING ?? demoFile();
  const parsed: unknown = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
  const events = Array.isArray(parsed) ? parsed : ((parsed as { data?: unknown; events?: unknown }).data ?? (parsed as { events?: unknown }).events);
  if (!Array.isArray(events) || events.length < 2) throw new Error(`${file} holds no rrweb events`);
  return (events as ReplayEvent[]).slice().sort((a, b) => a.timestamp - b.timestamp);
}

function demoFile(): string {
  const files = fs.existsSync(demoDir)
    ? fs
        .readdirSync(demoDir)
        .filter((f) => f.endsWith('.json.gz'))
        .sort()
    : [];
  if (files.length === 0) throw new Error(`no demo recording in ${demoDir} (not available yet)`);
  // The desktop recording when there are several (demo-desktop / demo-mobile).
  return path.join(demoDir, files.find((f) => !/mobile/i.test(f)) ?? files[0]);
}

/** Recorded time covered by events, in minutes. */
export const minutesOf = (events: ReplayEvent[]): number => (events[events.length - 1].timestamp - events[0].timestamp) / 60_000;

/**
 * A session of exactly `count` events: the recording played again and again (each repetition
 * is a new page load with its own meta and full snapshot), one second apart, starting at `start`.
 */
export function sessionOfSize(base: ReplayEvent[], count: number, start = Date.UTC(2026, 0, 1)): ReplayEvent[] {
  const span = base[base.length - 1].timestamp - base[0].timestamp + 1000;
  const events: ReplayEvent[] = [];
  for (let round = 0; events.length < count; round++) {
    const shift = start + round * span - base[0].timestamp;
    for (const event of base) {
      if (events.length === count) break;
      events.push({ ...event, timestamp: event.timestamp + shift });
    }
  }
  return events;
}

/**
 * The batches a tracker sends: one every few seconds of recorded time, capped in events, the
 * way tracker/ batches (every FLUSH_TICKS ticks of TICK_MS, or FLUSH_EVENTS events).
 */
export function batchesOf(events: ReplayEvent[], seconds = (FLUSH_TICKS * TICK_MS) / 1000, maxEvents = FLUSH_EVENTS): ReplayEvent[][] {
  const batches: ReplayEvent[][] = [];
  let current: ReplayEvent[] = [];
  let windowStart = events[0]?.timestamp ?? 0;
  for (const event of events) {
    if (current.length && (event.timestamp - windowStart >= seconds * 1000 || current.length >= maxEvents)) {
      batches.push(current);
      current = [];
    }
    if (current.length === 0) windowStart = event.timestamp;
    current.push(event);
  }
  if (current.length) batches.push(current);
  return batches;
}
