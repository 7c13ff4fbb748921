import { pageRecorded } from '../../common/recording-rules.js';
import { pathOf } from '../../common/session-facts.js';
import { readCarried } from '../../common/carried-facts.js';
import type { SessionState } from '../recordings/batch.js';
import { runsMeet, type IdRuns } from '../../common/id-runs.js';

interface EventLike {
  type: number;
  data: unknown;
  timestamp: number;
}

/** A campaign's page patterns (common/recording-rules.ts): none of either records every page. */
export interface PageRules {
  include: string[];
  exclude: string[];
}

/** The events of a batch on pages the campaign records, and what the judging found. */
export interface JudgedPages<T> {
  kept: T[];
  /** Events were dropped for their page. */
  dropped: boolean;
  /** The batch's last page load is of a page not recorded: when, for the session's carried state. */
  endsUnrecordedAt?: number;
  /** Events before the batch's first page load were kept though the page they belong to was not known. */
  keptUnknownOpening: boolean;
}

const hrefOf = (event: EventLike) => (event.type === 4 ? (event.data as { href?: unknown } | null)?.href : undefined);

/**
 * The events (in time order) that belong to pages the campaign records: from a page's Meta event
 * (rrweb's 4) on a page its patterns leave out, up to the next Meta event of a recorded one,
 * events are dropped. Events before the batch's first Meta event belong to the page the session
 * was on: `opening` says whether it is recorded (undefined: not known, taken as recorded).
 */
export function onRecordedPages<T extends EventLike>(events: T[], rules: PageRules, opening: boolean | undefined): JudgedPages<T> {
  const judged: JudgedPages<T> = { kept: events, dropped: false, keptUnknownOpening: false };
  if (!rules.include.length && !rules.exclude.length) return judged;
  let recorded = opening ?? true;
  let beforeFirstPage = true;
  judged.kept = events.filter((event) => {
    const href = hrefOf(event);
    if (typeof href === 'string') {
      beforeFirstPage = false;
      recorded = pageRecorded(pathOf(href), rules);
      judged.endsUnrecordedAt = recorded ? undefined : event.timestamp;
    } else if (beforeFirstPage && opening === undefined) judged.keptUnknownOpening = true;
    return recorded;
  });
  judged.dropped = judged.kept.length !== events.length;
  return judged;
}

/**
 * Whether the page a session was on after its last stored batch is one the campaign records (now):
 * not when that batch went on to a page not recorded, nor when its last recorded page is left out
 * by rules changed since.
 */
function sessionOnRecordedPage(row: Pick<SessionState, 'facts_carry' | 'exit_url'>, rules: PageRules): boolean {
  if (readCarried(row.facts_carry).onUnrecordedPage) return false;
  return row.exit_url === null || pageRecorded(row.exit_url, rules);
}

/** What a session's last stored batch leaves for packing its next one: whether its page is recorded, and the nodes blocked there. */
export interface SessionCarry {
  opening: boolean;
  blocked: IdRuns;
}

export const sessionCarry = (row: Pick<SessionState, 'facts_carry' | 'exit_url'>, rules: PageRules): SessionCarry => ({
  opening: sessionOnRecordedPage(row, rules),
  blocked: readCarried(row.facts_carry).blockedRuns,
});

/** Whether a batch packed before its session was known must be packed again with what the session carries (the batch by shape: pack.ts imports this file). */
export const carryMatters = (batch: { keptUnknownOpening: boolean; touchedIds: IdRuns | null }, carried: SessionCarry): boolean =>
  (batch.keptUnknownOpening && !carried.opening) || (carried.blocked.length > 0 && (batch.touchedIds === null || runsMeet(carried.blocked, batch.touchedIds)));
