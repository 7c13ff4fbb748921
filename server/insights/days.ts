import type { Executor } from '../db/executor.js';
import { summarize, type Summary } from './summary.js';
import { settledDayParts } from './settled-days.js';

// The insights of a range, as summaries that add up: settled whole days kept in insights_days,
// the rest computed from the sessions (server/insights/settled-days.ts).

/** The summaries whose sum is the campaign's sessions started in [from, to); those not kept are computed by `reader`. */
export function rangeSummaries(db: Executor, campaignId: string, from: number, to: number, now: number, reader: Executor = db): Promise<Summary[]> {
  return settledDayParts(db, campaignId, from, to, now, {
    compute: (start, end) => summarize(reader, campaignId, start, end),
    read: (start, end) =>
      db
        .selectFrom('insights_days')
        .select(['day', 'summary as json'])
        .where('campaign_id', '=', campaignId)
        .where('day', '>=', start)
        .where('day', '<', end)
        .execute(),
    keep: async (day, json) => {
      await db
        .insertInto('insights_days')
        .values({ campaign_id: campaignId, day, summary: json, computed_at: now })
        .onConflict((oc) => oc.columns(['campaign_id', 'day']).doUpdateSet({ summary: json, computed_at: now }))
        .execute();
    },
    drop: async (day) => {
      await db.deleteFrom('insights_days').where('campaign_id', '=', campaignId).where('day', '=', day).execute();
    },
    sessionsOf: (summary) => summary.sessions,
  });
}
