import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { recordingNow } from '../../../common/recording-now.js';
import { LIVE_WINDOW_MS, SESSION_IDLE_MS } from '../../../common/limits.js';
import { useRecordingNow } from '../../../src/lib/useRecordingNow.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const NOW = Date.UTC(2026, 11, 7, 3, 0);

describe('recording now: the one rule for "Live" and "still recording"', () => {
  it('holds while the last batch is within the live window, and not after, though the session has not ended', () => {
    expect(recordingNow({ lastActivityAt: NOW - 5_000 }, NOW)).toBe(true);
    expect(recordingNow({ lastActivityAt: NOW - LIVE_WINDOW_MS }, NOW)).toBe(true);
    expect(recordingNow({ lastActivityAt: NOW - LIVE_WINDOW_MS - 1 }, NOW)).toBe(false);
    // Seven minutes after the visit's last batch: not ended (the idle time is longer), not recording.
    expect(7 * 60_000).toBeLessThan(SESSION_IDLE_MS);
    expect(recordingNow({ lastActivityAt: NOW - 7 * 60_000 }, NOW)).toBe(false);
  });

  it('never holds for a session closed at a cap, however recent its last batch', () => {
    expect(recordingNow({ lastActivityAt: NOW, closed: true }, NOW)).toBe(false);
  });
});

describe('useRecordingNow', () => {
  it('turns false by itself once the window passes with no batch, and true again with a new one', () => {
    vi.useFakeTimers({ now: NOW });
    const { result, rerender } = renderHook(({ at }: { at: number | undefined }) => useRecordingNow(at === undefined ? undefined : { lastActivityAt: at }), {
      initialProps: { at: (NOW - 10_000) as number | undefined },
    });
    expect(result.current).toBe(true);
    act(() => void vi.advanceTimersByTime(LIVE_WINDOW_MS - 10_000));
    expect(result.current).toBe(true);
    act(() => void vi.advanceTimersByTime(2));
    expect(result.current).toBe(false);
    rerender({ at: Date.now() });
    expect(result.current).toBe(true);
    // A copy that does not know its last batch (saved before it travelled) is not recording.
    rerender({ at: undefined });
    expect(result.current).toBe(false);
  });
});
