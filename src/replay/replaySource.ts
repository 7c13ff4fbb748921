import { useSyncExternalStore } from 'react';
import type { ReplayEvent, ReplayInit } from '../../common/api-types.js';
import { parseHeld, type HeldBatches } from '../../common/held-batches.js';
import { takeLiveBatch } from '../lib/liveFeed.js';

// One replay source per session shown: the download, the device's offline copy and the live stream
// append to it; the replay screen reads it as one thing (useReplaySource) and the player follows
// its appends (follow). A source is made per download and lives as long as the query holding it.

export interface ReplaySnapshot {
  /** The session's details (the answer's head); null for a recording without them. */
  init: ReplayInit | null;
  /** Every event so far, in the order they were appended (a new array on each append; never changed). */
  events: ReplayEvent[];
  /** The download is over: nothing more comes but live events. */
  downloaded: boolean;
  /** The server called the session finished (it will not grow any more). */
  complete: boolean;
  /** The visitor is recording now: live events follow (see LIVE_WINDOW_MS). */
  live: boolean;
  /** The download broke off after the player had started (what it holds still plays). */
  error: unknown;
  /** The player has drawn its first frame: what can wait for it (the activity, the session's facts) shows from then. */
  drawn: boolean;
  /** The batches (seqs) its events came from, once the download said (null: unknown, an older copy): live follows from them. */
  held: HeldBatches | null;
}

export interface ReplaySource {
  /** For useSyncExternalStore: called after every change. */
  subscribe(onChange: () => void): () => void;
  getSnapshot(): ReplaySnapshot;
  /** Adds events after those already held. */
  append(events: readonly ReplayEvent[]): void;
  /** Adds a live batch's events, unless the batch of this seq is held already. */
  appendLive(seq: number, events: readonly ReplayEvent[]): void;
  /** Calls `onEvents` with the events from index `from` on (now, if any) and with every later append. */
  follow(from: number, onEvents: (events: readonly ReplayEvent[]) => void): () => void;
  /** The download is over; what the answer said of the session (and of the batches it carried). */
  finishDownload(session: { complete: boolean; live: boolean; batches?: string }): void;
  /** The download failed after the player had started. */
  fail(error: unknown): void;
  /** The session ended while followed live. */
  endLive(): void;
  /** The player drew its first frame (the download waits for it: see whenDrawn). */
  markDrawn(): void;
}

export function createReplaySource(init: ReplayInit | null, events: ReplayEvent[] = []): ReplaySource {
  let snapshot: ReplaySnapshot = { init, events, downloaded: false, complete: true, live: false, error: null, drawn: false, held: null };
  const listeners = new Set<() => void>();
  const followers = new Set<(events: readonly ReplayEvent[]) => void>();
  const change = (next: Partial<ReplaySnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };
  const add = (added: readonly ReplayEvent[], next: Partial<ReplaySnapshot> = {}) => {
    change({ ...next, events: added.length ? snapshot.events.concat(added) : snapshot.events });
    if (added.length) for (const follower of followers) follower(added);
  };
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    getSnapshot: () => snapshot,
    append(added) {
      if (added.length) add(added);
    },
    appendLive(seq, added) {
      const held = snapshot.held && takeLiveBatch(snapshot.held, seq);
      if (held) add(added, { held });
    },
    follow(from, onEvents) {
      if (from < snapshot.events.length) onEvents(snapshot.events.slice(from));
      followers.add(onEvents);
      return () => followers.delete(onEvents);
    },
    finishDownload: ({ complete, live, batches }) =>
      change({ downloaded: true, complete, live: live && !complete, held: batches === undefined ? null : parseHeld(batches) }),
    fail: (error) => change({ downloaded: true, error }),
    endLive: () => change({ live: false }),
    markDrawn: () => {
      if (!snapshot.drawn) change({ drawn: true });
    },
  };
}

/** A whole recording at hand (a shared link, a recording file, the demo) as a source. */
export function finishedSource(events: ReplayEvent[], init: ReplayInit | null = null): ReplaySource {
  const source = createReplaySource(init, events);
  source.finishDownload({ complete: true, live: false });
  return source;
}

/** The source's snapshot once `ready` holds of it. */
function when(source: ReplaySource, ready: (snapshot: ReplaySnapshot) => boolean): Promise<ReplaySnapshot> {
  return new Promise((resolve) => {
    const check = () => {
      const snapshot = source.getSnapshot();
      if (!ready(snapshot)) return;
      stop();
      resolve(snapshot);
    };
    const stop = source.subscribe(check);
    check();
  });
}

/** The source's snapshot once the player has drawn its first frame. */
export const whenDrawn = (source: ReplaySource) => when(source, (snapshot) => snapshot.drawn);

/** The source's snapshot once its download is over. */
export const whenDownloaded = (source: ReplaySource) => when(source, (snapshot) => snapshot.downloaded);

/**
 * The source's snapshot once it holds every event up to the moment `at`: one after it has arrived
 * (events come in time order), or the download is over.
 */
export const whenReached = (source: ReplaySource, at: number) =>
  when(source, ({ downloaded, events }) => downloaded || (events.length > 0 && events[events.length - 1].timestamp > at));

const noSource = () => () => {};
const noSnapshot = () => null;

/** The source's snapshot, re-read on every change (null without a source). */
export function useReplaySource(source: ReplaySource | null): ReplaySnapshot | null {
  const read = source ? source.getSnapshot : noSnapshot;
  return useSyncExternalStore(source ? source.subscribe : noSource, read, read);
}
