import type { ReplayEvent } from '../../common/api-types.js';
import type { LiveFeed } from '../components/ReplayPlayer.js';

/** Offline, under a session that was still recording when its replay was saved. */
export const NOT_LIVE_OFFLINE = 'This session was still recording when saved; it is not live offline.';

/**
 * The live replay stream's events for the player. The stream starts at the session's start, and
 * the page already holds the first `known` events (the replay it loaded): those are passed over, so
 * the player gets each event once. A player created later (or again) gets everything so far first.
 */
export function createLiveFeed(known: number): LiveFeed & { push(events: ReplayEvent[]): void } {
  let skip = known;
  const received: ReplayEvent[] = [];
  const listeners = new Set<(events: ReplayEvent[]) => void>();
  return {
    push(events) {
      const taken = skip >= events.length ? [] : events.slice(skip);
      skip = Math.max(0, skip - events.length);
      if (taken.length === 0) return;
      received.push(...taken);
      for (const listener of listeners) listener(taken);
    },
    subscribe(onEvents) {
      if (received.length) onEvents(received.slice());
      listeners.add(onEvents);
      return () => listeners.delete(onEvents);
    },
  };
}
