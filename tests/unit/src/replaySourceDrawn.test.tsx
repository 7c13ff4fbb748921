import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { createReplaySource, useReplaySource, whenDrawn, type ReplaySource } from '../../../src/replay/replaySource.js';

// What waits for the player's first frame on the replay screen (the activity, the session's
// facts) shows once the source's snapshot says it was drawn; a new source starts undrawn.

afterEach(cleanup);

describe("a replay source's first frame", () => {
  it('is in the snapshot once the player marks it, told to subscribers once, and ends whenDrawn', async () => {
    const source = createReplaySource(null, []);
    const heard = vi.fn();
    source.subscribe(heard);
    const resolved = vi.fn();
    const drawn = whenDrawn(source).then(resolved);
    await Promise.resolve();
    expect(resolved).not.toHaveBeenCalled();
    expect(source.getSnapshot().drawn).toBe(false);
    source.markDrawn();
    source.markDrawn();
    expect(source.getSnapshot().drawn).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
    await drawn;
    expect(resolved).toHaveBeenCalledTimes(1);
    // A source already drawn answers at once.
    await expect(whenDrawn(source)).resolves.toMatchObject({ drawn: true });
  });

  it('renders the screen again when drawn, and a new source starts undrawn', () => {
    const first = createReplaySource(null, []);
    const { result, rerender } = renderHook(({ source }: { source: ReplaySource | null }) => useReplaySource(source)?.drawn, {
      initialProps: { source: first as ReplaySource | null },
    });
    expect(result.current).toBe(false);
    act(() => first.markDrawn());
    expect(result.current).toBe(true);
    rerender({ source: createReplaySource(null, []) });
    expect(result.current).toBe(false);
  });
});
