import type { Executor } from '../db/executor.js';
import { filtered } from '../sessions/repository.js';
import type { SessionFilters } from '../sessions/query.js';

// What a summary (summary.ts) and its pages (pages.ts) both read: the sessions counted, and how
// many values of a top list are kept.

/** How many values of each top list (and pages) a summary keeps. */
export const TOP_KEEP = 100;

/** The campaign's sessions that pass the list's filters, as a query to narrow further. */
export const matching = (db: Executor, campaignId: string, filters: SessionFilters) =>
  filtered(db.selectFrom('sessions').where('campaign_id', '=', campaignId), filters);

export type Matching = ReturnType<typeof matching>;
