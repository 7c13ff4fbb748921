import type { ReplayEvent } from '../../common/api-types.js';
import type { ReplaySource } from '../replay/replaySource.js';

/** Offline, under a session that was still recording when its replay was saved. */
export const NOT_LIVE_OFFLINE = 'This session was still recording when saved; it is not live offline.';

/**
 * Appends the live replay stream's events to the session's source. The stream starts at the
 * session's start, and the source already holds the events downloaded before it opened: those are
 * passed over, so the source gets each event once.
 */
export function liveAppender(source: ReplaySource): (events: ReplayEvent[]) => void {
  let skip = source.getSnapshot().events.length;
  return (events) => {
    const taken = skip >= events.length ? [] : events.slice(skip);
    skip = Math.max(0, skip - events.length);
    source.append(taken);
  };
}
