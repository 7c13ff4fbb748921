import { EventType } from '@rrweb/types';
import type { ReplayEvent, ReplayInit } from '../../common/api-types.js';
import { emptyFacts, factMoments, foldFacts } from '../../common/session-facts.js';
import { summariseUserAgent } from '../../common/user-agent.js';
import { ERRORS_SHOWN, type IssueFacts } from './issueLinks.js';
import { sessionProblems } from './sessionTitle.js';

// The facts an issue tells about a session, read from what the replay page holds (online or
// saved offline): the server's summary in the replay's `init` and the recording read by the
// session facts' own rules — who, the pages, the errors' messages as ingest keeps them. Nothing
// else of the recording: no typed value, no page text.

/** The recording's facts that do not depend on the moment (worked out once per recording). */
export interface RecordingIssueFacts extends Omit<IssueFacts, 'viewport'> {
  /** Each page view's viewport, at its moment on the player's clock, in order. */
  viewports: { at: number; width: number; height: number }[];
}

const count = (value: number | undefined, fallback: number) => value ?? fallback;

export function recordingIssueFacts(init: ReplayInit, events: readonly ReplayEvent[]): RecordingIssueFacts {
  const sorted = events.slice().sort((a, b) => a.timestamp - b.timestamp);
  const start = sorted[0]?.timestamp ?? 0;
  const moments = factMoments(sorted);
  const facts = foldFacts(emptyFacts(), moments);
  const errors = moments.flatMap((moment) => (moment.kind === 'error' && moment.message ? [{ at: moment.t - start, message: moment.message }] : []));
  // The server's counts first (a saved copy or a file from before they were sent: the recording's).
  const counts = {
    errorCount: count(init.errorCount, facts.errorCount),
    failedRequestCount: count(init.failedRequestCount, facts.failedRequestCount),
    rageClickCount: count(init.rageClickCount, facts.rageClickCount),
    deadClickCount: count(init.deadClickCount, facts.deadClickCount),
    quickBackCount: count(init.quickBackCount, facts.quickBackCount),
    excessiveScrollCount: count(init.excessiveScrollCount, facts.excessiveScrollCount),
  };
  const viewports = sorted.flatMap((event) => {
    const data = event.data as { width?: unknown; height?: unknown } | null;
    return event.type === EventType.Meta && typeof data?.width === 'number' && typeof data.height === 'number'
      ? [{ at: event.timestamp - start, width: data.width, height: data.height }]
      : [];
  });
  return {
    who: facts.userId || 'Anonymous',
    pages: facts.pages,
    ...(init.durationMs === undefined ? {} : { durationMs: init.durationMs }),
    errorCount: counts.errorCount,
    problems: sessionProblems(counts).map((problem) => problem.text),
    ...summariseUserAgent(init.userAgent),
    errors: errors.slice(-ERRORS_SHOWN),
    viewports,
  };
}

/** The facts at a moment: the viewport of the page view shown then (the first one before it began). */
export function issueFactsAt({ viewports, ...facts }: RecordingIssueFacts, atMs: number): IssueFacts {
  const shown = viewports.filter((viewport) => viewport.at <= atMs).pop() ?? viewports[0];
  return shown ? { ...facts, viewport: { width: shown.width, height: shown.height } } : facts;
}
