import type { Executor } from '../db/executor.js';
import type { Funnel } from '../../common/api/funnels.js';
import { addTallies, type Tally } from '../../common/funnels.js';
import { DAY_MS } from '../../common/insights.js';
import { SETTLED_MS } from '../insights/days.js';
import { tallyOf } from './repository.js';

// A funnel over a range, as the insights are (server/insights/days.ts): each whole settled day's
// tally is kept in funnel_days (computed the first time it is asked for), the rest is counted
// from the sessions. The triggers of migration 0022 drop a day's tallies whenever one of its
// sessions is added, changed or deleted; changing a funnel's steps or window drops its own.

const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

export async function funnelTally(db: Executor, campaignId: string, funnel: Funnel, from: number, to: number, now: number): Promise<Tally> {
  const stepCount = funnel.steps.length;
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const afterDays = dayStart(Math.min(to, now - SETTLED_MS));
  if (firstDay >= afterDays) return tallyOf(db, campaignId, funnel, from, to);
  const parts: Tally[] = [];
  if (from < firstDay) parts.push(await tallyOf(db, campaignId, funnel, from, firstDay));
  const rows = await db
    .selectFrom('funnel_days')
    .select(['day', 'tally'])
    .where('funnel_id', '=', funnel.id)
    .where('day', '>=', firstDay)
    .where('day', '<', afterDays)
    .execute();
  const kept = new Map(rows.map((row) => [Number(row.day), row.tally]));
  for (let day = firstDay; day < afterDays; day += DAY_MS) {
    const text = kept.get(day);
    parts.push(text ? (JSON.parse(text) as Tally) : await keepDay(db, campaignId, funnel, day));
  }
  if (afterDays < to) parts.push(await tallyOf(db, campaignId, funnel, afterDays, to));
  return addTallies(parts, stepCount);
}

const daySessions = async (db: Executor, campaignId: string, day: number) =>
  Number(
    (
      await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', campaignId)
        .where('started_at', '>=', day)
        .where('started_at', '<', day + DAY_MS)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Counts a day and keeps it, unless the day's sessions changed in number while it was counted. */
async function keepDay(db: Executor, campaignId: string, funnel: Funnel, day: number): Promise<Tally> {
  const before = await daySessions(db, campaignId, day);
  const tally = await tallyOf(db, campaignId, funnel, day, day + DAY_MS);
  const text = JSON.stringify(tally);
  await db
    .insertInto('funnel_days')
    .values({ funnel_id: funnel.id, campaign_id: campaignId, day, tally: text })
    .onConflict((oc) => oc.columns(['funnel_id', 'day']).doUpdateSet({ tally: text }))
    .execute();
  if ((await daySessions(db, campaignId, day)) !== before)
    await db.deleteFrom('funnel_days').where('funnel_id', '=', funnel.id).where('day', '=', day).execute();
  return tally;
}
