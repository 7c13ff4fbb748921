import type { ReplayEvent } from '../../../common/api-types.js';

// The player's arithmetic, kept free of the DOM so it can be tested alone: how big the
// recording is drawn, how the time reads, and where a key press on the scrubber goes.

export interface Size {
  width: number;
  height: number;
}

// rrweb's event types and the incremental sources the player reads, as numbers: @rrweb/types'
// enums would join the first load of / (the landing's demo player).
export const FULL_SNAPSHOT = 2;
export const INCREMENTAL_SNAPSHOT = 3;
/** rrweb's meta event carries the recorded viewport's size. */
export const META_EVENT = 4;
export const ADOPTED_STYLE_SHEET = 15;

/** The recorded viewport's size from the first meta event, else `fallback`. */
export function recordingSize(events: readonly ReplayEvent[], fallback: Size): Size {
  const meta = events.find((event) => event.type === META_EVENT)?.data as { width?: unknown; height?: unknown } | undefined;
  const dimension = (value: unknown, otherwise: number) => (typeof value === 'number' && Number.isFinite(value) && value >= 1 ? value : otherwise);
  return { width: dimension(meta?.width, fallback.width), height: dimension(meta?.height, fallback.height) };
}

/**
 * The largest size with the recording's proportions that fits `room` (never more than
 * `maxScale` times the recorded size), in whole pixels, at least 1×1.
 */
export function fitRecording(recording: Size, room: Size, maxScale = Number.POSITIVE_INFINITY): Size {
  const scale = Math.min(room.width / recording.width, room.height / recording.height, maxScale);
  const safe = Number.isFinite(scale) && scale >= 0 ? scale : 1;
  return { width: Math.max(1, Math.floor(recording.width * safe)), height: Math.max(1, Math.floor(recording.height * safe)) };
}

/** 'mm:ss', or 'h:mm:ss' past an hour. */
export function formatPlayerTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

/** One arrow press moves 5 seconds, on the scrubber and on the page, however long the recording: ← ← is 10 s. */
export const ARROW_STEP_MS = 5000;

/**
 * Where a key pressed on the scrubber moves playback (ms), or null for keys it leaves alone:
 * arrows step, Page Up/Down jump a tenth, Home/End go to the start/end.
 */
export function seekForKey(key: string, currentMs: number, totalMs: number): number | null {
  const clamp = (ms: number) => Math.min(totalMs, Math.max(0, ms));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(currentMs - ARROW_STEP_MS);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(currentMs + ARROW_STEP_MS);
    case 'PageDown':
      return clamp(currentMs - totalMs / 10);
    case 'PageUp':
      return clamp(currentMs + totalMs / 10);
    case 'Home':
      return 0;
    case 'End':
      return totalMs;
    default:
      return null;
  }
}

/** How a speed reads on its button: 0.5x, 1x, 2x. */
export const speedLabel = (speed: number) => `${speed}x`;
