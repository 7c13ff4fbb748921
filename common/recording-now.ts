import { LIVE_WINDOW_MS } from './limits.js';

// The one rule for "Live" and "still recording", for the server (the replay's `live`, the live
// replay) and the PWA (the sessions list, the replay page, saved copies): batches are arriving.

export interface RecordingState {
  /** When the session's last batch was stored (epoch ms, the server's clock). */
  lastActivityAt: number;
  /** Closed at a cap: no batch is taken any more. */
  closed?: boolean;
}

/** Whether the visitor is recording now: a batch came within LIVE_WINDOW_MS and the session takes more. */
export const recordingNow = (state: RecordingState, now: number): boolean => !state.closed && now - state.lastActivityAt <= LIVE_WINDOW_MS;

/** When recordingNow turns false, unless another batch comes (a page re-renders then). */
export const recordingEndsAt = (state: RecordingState): number => state.lastActivityAt + LIVE_WINDOW_MS + 1;
