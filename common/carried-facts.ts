// A session's carried state between batches (common/session-facts.ts's rules): what is stored in
// sessions.facts_carry beside the counts, bounded, and read back defensively.
import { isScrolling, SCROLL_REVERSALS } from './frustration-rules.js';
import { MAX_RECENT_CLICKS, type SessionFacts } from './session-facts.js';
import { readRuns } from './id-runs.js';

/** What a session carries from one batch to the next beside its counts: bounded, stored as JSON. */
export type CarriedFacts = Pick<
  SessionFacts,
  'lastInputAt' | 'recentClicks' | 'pendingClicks' | 'pageTrail' | 'scrolling' | 'onUnrecordedPage' | 'blockedRuns'
>;

export const carriedFacts = ({ lastInputAt, recentClicks, pendingClicks, pageTrail, scrolling, onUnrecordedPage, blockedRuns }: SessionFacts): string =>
  JSON.stringify({
    lastInputAt,
    recentClicks,
    pendingClicks,
    pageTrail,
    scrolling,
    ...(onUnrecordedPage ? { onUnrecordedPage } : {}),
    ...(blockedRuns.length ? { blockedRuns } : {}),
  });

/** The carried state as stored, read back defensively: a bad value starts afresh. */
export function readCarried(json: string | null | undefined): CarriedFacts {
  const empty = { lastInputAt: null, recentClicks: [], pendingClicks: [], pageTrail: [], scrolling: null, onUnrecordedPage: false, blockedRuns: [] };
  if (!json) return empty;
  try {
    const value = JSON.parse(json) as Partial<CarriedFacts>;
    return {
      lastInputAt: typeof value.lastInputAt === 'number' ? value.lastInputAt : null,
      recentClicks: Array.isArray(value.recentClicks) ? value.recentClicks.slice(-MAX_RECENT_CLICKS) : [],
      pendingClicks: Array.isArray(value.pendingClicks) ? value.pendingClicks.slice(-MAX_RECENT_CLICKS) : [],
      pageTrail: Array.isArray(value.pageTrail) ? value.pageTrail.slice(-2) : [],
      scrolling: isScrolling(value.scrolling) ? { ...value.scrolling, turns: value.scrolling.turns.slice(-SCROLL_REVERSALS) } : null,
      onUnrecordedPage: value.onUnrecordedPage === true,
      blockedRuns: readRuns(value.blockedRuns),
    };
  } catch {
    return empty;
  }
}
