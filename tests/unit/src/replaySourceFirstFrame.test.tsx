import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { createReplaySource, useFirstFrameDrawn, type ReplaySource } from '../../../src/replay/replaySource.js';

// What waits for the player's first frame on the replay screen (the activity, the session's
// facts) renders once the source says it was drawn, and again waits for a new source's.

afterEach(cleanup);

describe('useFirstFrameDrawn', () => {
  it("is false until the source's first frame is drawn, and for a new source until its own is", async () => {
    const first = createReplaySource(null, []);
    const { result, rerender } = renderHook(({ source }: { source: ReplaySource | null }) => useFirstFrameDrawn(source), {
      initialProps: { source: first as ReplaySource | null },
    });
    expect(result.current).toBe(false);
    await act(async () => first.markDrawn());
    expect(result.current).toBe(true);

    const second = createReplaySource(null, []);
    rerender({ source: second });
    expect(result.current).toBe(false);
    await act(async () => second.markDrawn());
    expect(result.current).toBe(true);

    rerender({ source: null });
    expect(result.current).toBe(false);
  });
});
