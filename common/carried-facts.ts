// A session's carried state between batches (common/session-facts.ts's rules): what is stored in
// sessions.facts_carry beside the counts, bounded, and read back defensively.
import { isScrolling, SCROLL_REVERSALS } from './frustration-rules.js';
import { MAX_RECENT_CLICKS, MAX_SEARCH_TEXTS, type SessionFacts } from './session-facts.js';
import { readRuns } from './id-runs.js';

/** What a session carries from one batch to the next beside its counts: bounded, stored as JSON. */
export type CarriedFacts = Pick<
  SessionFacts,
  'lastInputAt' | 'recentClicks' | 'pendingClicks' | 'pageTrail' | 'scrolling' | 'onUnrecordedPage' | 'blockedRuns' | 'searchTextCount'
>;

export const carriedFacts = ({
  lastInputAt,
  recentClicks,
  pendingClicks,
  pageTrail,
  scrolling,
  onUnrecordedPage,
  blockedRuns,
  searchTextCount,
}: SessionFacts): string =>
  JSON.stringify({
    lastInputAt,
    recentClicks,
    pendingClicks,
    pageTrail,
    scrolling,
    ...(onUnrecordedPage ? { onUnrecordedPage } : {}),
    ...(blockedRuns.length ? { blockedRuns } : {}),
    ...(searchTextCount ? { searchTextCount } : {}),
  });

/** The carried state as stored, read back defensively: a bad value starts afresh. */
export function readCarried(json: string | null | undefined): CarriedFacts {
  const empty = {
    lastInputAt: null,
    recentClicks: [],
    pendingClicks: [],
    pageTrail: [],
    scrolling: null,
    onUnrecordedPage: false,
    blockedRuns: [],
    searchTextCount: 0,
  };
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
      searchTextCount: Number.isSafeInteger(value.searchTextCount) ? Math.min(Math.max(0, value.searchTextCount as number), MAX_SEARCH_TEXTS) : 0,
    };
  } catch {
    return empty;
  }
}
