import type { Executor } from '../db/executor.js';
import type { Funnel } from '../../common/api/funnels.js';
import { addTallies, type Tally } from '../../common/funnels.js';
import { settledDayParts } from '../insights/settled-days.js';
import type { HeavyRead } from '../http/heavy-reads.js';

// A funnel over a range, as the insights are (server/insights/settled-days.ts): each whole settled
// day's tally is kept in funnel_days, the rest is counted from the sessions. The triggers of
// migration 0022 drop a day's tallies whenever one of its sessions is added, changed or deleted;
// changing a funnel's steps or window drops its own.

/** The funnel's tally over [from, to): kept days read from and written to `db`, the rest counted in the heavy read's worker. */
export async function funnelTally(db: Executor, read: HeavyRead, campaignId: string, funnel: Funnel, from: number, to: number, now: number): Promise<Tally> {
  const parts = await settledDayParts(db, campaignId, from, to, now, {
    compute: (start, end) => read.funnelTally(campaignId, funnel, start, end),
    read: (start, end) =>
      db
        .selectFrom('funnel_days')
        .select(['day', 'tally as json'])
        .where('funnel_id', '=', funnel.id)
        .where('day', '>=', start)
        .where('day', '<', end)
        .execute(),
    keep: async (day, json) => {
      await db
        .insertInto('funnel_days')
        .values({ funnel_id: funnel.id, campaign_id: campaignId, day, tally: json })
        .onConflict((oc) => oc.columns(['funnel_id', 'day']).doUpdateSet({ tally: json }))
        .execute();
    },
    drop: async (day) => {
      await db.deleteFrom('funnel_days').where('funnel_id', '=', funnel.id).where('day', '=', day).execute();
    },
  });
  return addTallies(parts, funnel.steps.length);
}
