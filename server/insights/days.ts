import type { Executor } from '../db/executor.js';
import { DAY_MS } from '../../common/insights.js';
import { summarize, type Summary } from './summary.js';

// The insights of a range, as summaries that add up: whole days that have settled are read from
// insights_days (computed the first time they are asked for, then kept), the rest — the range's
// partial first and last day, and the days still changing — are computed from the sessions.
//
// A stored day stays right: triggers on sessions (migration 0022) delete a day's row whenever one
// of its sessions is inserted, updated or deleted, and the next read computes it again. Only
// settled days are stored (ended SETTLED_MS ago: their sessions no longer take batches or bot
// verdicts, but for the rare hours-long one, whose batch then drops the row), so a computation
// racing a write is rare; and a row whose day's session count changed while it was computed is
// dropped at once (a session deleted meanwhile).

/**
 * A day is stored once it ended this long ago: past the bot sweep's day and a session's idle end.
 * The triggers of migration 0022 skip sessions started less than a day ago: keep this above that.
 */
export const SETTLED_MS = 2 * DAY_MS;

const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/** The summaries whose sum is the campaign's sessions started in [from, to). */
export async function rangeSummaries(db: Executor, campaignId: string, from: number, to: number, now: number): Promise<Summary[]> {
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const afterDays = dayStart(Math.min(to, now - SETTLED_MS));
  if (firstDay >= afterDays) return [await summarize(db, campaignId, from, to)];
  const parts: Summary[] = [];
  if (from < firstDay) parts.push(await summarize(db, campaignId, from, firstDay));
  const rows = await db
    .selectFrom('insights_days')
    .select(['day', 'summary'])
    .where('campaign_id', '=', campaignId)
    .where('day', '>=', firstDay)
    .where('day', '<', afterDays)
    .execute();
  const stored = new Map(rows.map((row) => [Number(row.day), row.summary]));
  for (let day = firstDay; day < afterDays; day += DAY_MS) {
    const text = stored.get(day);
    parts.push(text ? (JSON.parse(text) as Summary) : await storeDay(db, campaignId, day, now));
  }
  if (afterDays < to) parts.push(await summarize(db, campaignId, afterDays, to));
  return parts;
}

/** Computes a day's summary and keeps it, unless a session of the day went while it was computed. */
async function storeDay(db: Executor, campaignId: string, day: number, now: number): Promise<Summary> {
  const summary = await summarize(db, campaignId, day, day + DAY_MS);
  const text = JSON.stringify(summary);
  await db
    .insertInto('insights_days')
    .values({ campaign_id: campaignId, day, summary: text, computed_at: now })
    .onConflict((oc) => oc.columns(['campaign_id', 'day']).doUpdateSet({ summary: text, computed_at: now }))
    .execute();
  const { sessions } = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('sessions'))
    .where('campaign_id', '=', campaignId)
    .where('started_at', '>=', day)
    .where('started_at', '<', day + DAY_MS)
    .executeTakeFirstOrThrow();
  if (Number(sessions) !== summary.sessions) await db.deleteFrom('insights_days').where('campaign_id', '=', campaignId).where('day', '=', day).execute();
  return summary;
}
