import type { Executor } from '../db/executor.js';
import { DAY_MS } from '../../common/insights.js';

// A figure over a range (the insights' summaries, a funnel's tallies) as parts that add up: whole
// days that have settled are read from a table (computed the first time they are asked for, then
// kept), the rest — the range's partial first and last day, and the days still changing — are
// computed from the sessions.
//
// A kept day stays right: triggers on sessions (migration 0022) delete a day's rows whenever one
// of its sessions is inserted, updated or deleted, and the next read computes it again. Only
// settled days are kept (ended SETTLED_MS ago: their sessions no longer take batches or bot
// verdicts, but for the rare hours-long one, whose batch then drops the row), so a computation
// racing a write is rare; and a row whose day's session count changed while it was computed is
// dropped at once (a session deleted meanwhile).

/**
 * A day is kept once it ended this long ago: past the bot sweep's day and a session's idle end.
 * The triggers of migration 0022 skip sessions started less than a day ago: keep this above that.
 */
export const SETTLED_MS = 2 * DAY_MS;

/** One figure's table of kept days, and how the figure is computed from the sessions. */
export interface KeptDays<T> {
  /** The figure of the campaign's sessions started in [from, to). */
  compute(from: number, to: number): Promise<T>;
  /** The kept days in [from, to): each day's start and its figure as JSON. */
  read(from: number, to: number): Promise<{ day: number | string | bigint; json: string }[]>;
  keep(day: number, json: string): Promise<void>;
  drop(day: number): Promise<void>;
  /** The day's session count the figure tells, if it tells one; otherwise it is counted before computing. */
  sessionsOf?(figure: T): number;
}

const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/** The figures whose sum is the campaign's sessions started in [from, to). */
export async function settledDayParts<T>(db: Executor, campaignId: string, from: number, to: number, now: number, days: KeptDays<T>): Promise<T[]> {
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const afterDays = dayStart(Math.min(to, now - SETTLED_MS));
  if (firstDay >= afterDays) return [await days.compute(from, to)];
  const parts: T[] = [];
  if (from < firstDay) parts.push(await days.compute(from, firstDay));
  const kept = new Map((await days.read(firstDay, afterDays)).map((row) => [Number(row.day), row.json]));
  for (let day = firstDay; day < afterDays; day += DAY_MS) {
    const json = kept.get(day);
    parts.push(json ? (JSON.parse(json) as T) : await keepDay(db, campaignId, day, days));
  }
  if (afterDays < to) parts.push(await days.compute(afterDays, to));
  return parts;
}

/** Computes a day's figure and keeps it, unless the day's sessions changed in number while it was computed. */
async function keepDay<T>(db: Executor, campaignId: string, day: number, days: KeptDays<T>): Promise<T> {
  const before = days.sessionsOf ? undefined : await daySessions(db, campaignId, day);
  const figure = await days.compute(day, day + DAY_MS);
  await days.keep(day, JSON.stringify(figure));
  if ((await daySessions(db, campaignId, day)) !== (before ?? days.sessionsOf!(figure))) await days.drop(day);
  return figure;
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
