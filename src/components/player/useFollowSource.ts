import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReplaySource } from '../../replay/replaySource.js';
import { addEvents, goLive, type PlayerHandle } from './rrwebPlayer.js';
import type { PlayerState } from './usePlayer.js';

// What the player does with the events its source gets after it was made. The rest of a recording
// still downloading only lengthens it; a live session's new events are followed: the player stays
// at the latest moment until the user seeks back ('Jump to live' returns there).

/** A live session whose last event is this recent opens at the latest moment (else as a replay does). */
const LIVE_RECENT_MS = 30_000;

export interface Following {
  /** Live and at the latest moment (else behind it, or not live). */
  following: boolean;
  setFollowing(value: boolean): void;
  jumpToLive(): void;
  /** Called when a player is made, before it follows the source. */
  opened(player: PlayerHandle): void;
}

export function useFollowSource(source: ReplaySource, live: boolean, startAtMs: number | undefined, state: PlayerState): Following {
  const { player, setCurrentTime, setTotalTime } = state;
  const [following, setFollowingState] = useState(true);
  // Read by appends, which can come before a change of it has been rendered (the source hands
  // over what it holds as soon as it is followed, right after the player chose where to open).
  const followingNow = useRef(true);
  const setFollowing = useCallback((value: boolean) => {
    followingNow.current = value;
    setFollowingState(value);
  }, []);
  const toLiveEdge = useCallback(
    (handle: PlayerHandle) => {
      const total = goLive(handle);
      setTotalTime(total);
      setCurrentTime(total);
    },
    [setCurrentTime, setTotalTime],
  );
  /** Where a new player opens: a visitor active just now is followed at once; a session quiet for a
   * while opens as a replay does, with 'Jump to live' to catch up. A moment asked for (?t=, even 0) is shown. */
  const opened = (handle: PlayerHandle) => {
    if (!live) return;
    const recent = Date.now() - (source.getSnapshot().events.at(-1)?.timestamp ?? 0) <= LIVE_RECENT_MS;
    setFollowing(recent && startAtMs === undefined);
    if (recent && startAtMs === undefined) toLiveEdge(handle);
  };

  useEffect(() => {
    if (!player) return;
    let current = true;
    const stop = source.follow(player.startedWith, (added) => {
      void addEvents(player, added).then(() => {
        if (!current) return;
        if (source.getSnapshot().live && followingNow.current) toLiveEdge(player);
        else setTotalTime(player.rrweb.getMetaData().totalTime);
      });
    });
    return () => {
      current = false;
      stop();
    };
  }, [player, source, setFollowing, toLiveEdge, setTotalTime]);

  const jumpToLive = () => {
    if (!player) return;
    setFollowing(true);
    // rrweb draws the page again from its first snapshot only when going back from later than it:
    // to the end, back to just after that snapshot (drawn afresh), then the rest (see afterFirstSnapshot).
    goLive(player);
    player.rrweb.goto(player.firstDrawn, false);
    toLiveEdge(player);
  };

  return { following: live && following, setFollowing, jumpToLive, opened };
}
