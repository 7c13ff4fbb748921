import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { filtered, type SessionFilters } from '../sessions/repository.js';
import { HOUR_MS } from '../../common/insights.js';

// A summary of the sessions started in a span of time, in a form that adds up: the dashboard of
// a range is the sum of its days' summaries (server/insights/days.ts). Counts add; medians come
// from duration histograms (to the second under 10 minutes, coarser above); top lists keep their
// first TOP_KEEP values a day, so a value outside every day's first 100 is left out of a range.

/** How many values of each top list (and pages) a summary keeps. */
export const TOP_KEEP = 100;
/** The pages of at most this many sessions (a span's newest) are counted in one summary. */
export const PAGES_PER_SUMMARY = 20_000;

export type Top = [value: string | null, sessions: number, extra: string | null][];
export type PageRow = [path: string, views: number, entries: number, exits: number, rage: number, dead: number, errors: number];

export interface Summary {
  sessions: number;
  bots: number;
  pages: number;
  withErrors: number;
  withFrustration: number;
  rageClicks: number;
  deadClicks: number;
  quickBacks: number;
  excessiveScrolls: number;
  errors: number;
  failedRequests: number;
  withRage: number;
  withDead: number;
  withQuickBacks: number;
  withExcessiveScrolling: number;
  withFailed: number;
  /** [hour start, sessions, bots, with errors, with frustration] */
  hours: [number, number, number, number, number][];
  /** [duration rounded (ms), sessions] */
  durations: [number, number][];
  actives: [number, number][];
  tops: Record<TopName, Top>;
  pageRows: PageRow[];
  pagesFrom: number;
}

export type TopName = 'referrer' | 'device' | 'browser' | 'os' | 'screen' | 'country';

const n = (value: unknown) => Number(value ?? 0);
/** A session with any frustration signal (errors and failed requests are counted apart). */
const FRUSTRATED = sql`rage_click_count > 0 or dead_click_count > 0 or quick_back_count > 0 or excessive_scroll_count > 0`;
const count = (condition: RawBuilder<unknown>) => sql`sum(case when ${condition} then 1 else 0 end)`;
/** A session's duration as the list shows it (at least its active time). */
const DURATION = sql`case when duration_ms > active_ms then duration_ms else active_ms end`;

/** A duration rounded to its histogram bin: 1 s under 10 min, 10 s under an hour, a minute under a day, else an hour. */
function bin(value: RawBuilder<unknown>) {
  const to = (ms: number) => sql`((${value} + ${sql.lit(ms / 2)}) / ${sql.lit(ms)}) * ${sql.lit(ms)}`;
  return sql`case when ${value} < 600000 then ${to(1000)} when ${value} < 3600000 then ${to(10_000)} when ${value} < 86400000 then ${to(60_000)} else ${to(HOUR_MS)} end`;
}

const TOPS: Record<TopName, RawBuilder<unknown>> = {
  referrer: sql`referrer`,
  device: sql`device`,
  browser: sql`browser_name`,
  os: sql`os`,
  screen: sql`case when screen_width is null or screen_height is null then null else ${sql.ref('screen_width')} || '×' || ${sql.ref('screen_height')} end`,
  country: sql`country_code`,
};

export const matching = (db: Executor, campaignId: string, filters: SessionFilters) =>
  filtered(db.selectFrom('sessions').where('campaign_id', '=', campaignId), filters);
type Base = ReturnType<typeof matching>;

/** The summary of a campaign's sessions started in [from, to), with the list's filters. */

export async function summarize(db: Executor, campaignId: string, from: number, to: number, filters: SessionFilters = {}): Promise<Summary> {
  const base = matching(db, campaignId, { ...filters, from, to });
  const hour = sql<number>`(started_at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
  const histogram = async (value: RawBuilder<unknown>) => {
    const rows = await base
      .select([bin(value).as('v'), sql<number>`count(*)`.as('c')])
      .groupBy(bin(value))
      .execute();
    return rows.map((r) => [n(r.v), n(r.c)] as [number, number]).sort((a, b) => a[0] - b[0]);
  };
  const top = async (value: RawBuilder<unknown>): Promise<Top> => {
    const rows = await base
      .select([value.as('value'), sql<number>`count(*)`.as('sessions'), sql<string | null>`max(country)`.as('extra')])
      .groupBy(value)
      .orderBy(sql`count(*)`, 'desc')
      .limit(TOP_KEEP)
      .execute();
    return rows.map((r) => [(r.value as string | null) ?? null, n(r.sessions), r.extra ?? null]);
  };
  const row = await base
    .select([
      sql<number>`count(*)`.as('sessions'),
      sql<number>`sum(is_bot)`.as('bots'),
      sql<number>`sum(page_count)`.as('pages'),
      count(sql`error_count > 0`).as('withErrors'),
      count(FRUSTRATED).as('withFrustration'),
      sql`sum(rage_click_count)`.as('rageClicks'),
      sql`sum(dead_click_count)`.as('deadClicks'),
      sql`sum(quick_back_count)`.as('quickBacks'),
      sql`sum(excessive_scroll_count)`.as('excessiveScrolls'),
      sql`sum(error_count)`.as('errors'),
      sql`sum(failed_request_count)`.as('failedRequests'),
      count(sql`rage_click_count > 0`).as('withRage'),
      count(sql`dead_click_count > 0`).as('withDead'),
      count(sql`quick_back_count > 0`).as('withQuickBacks'),
      count(sql`excessive_scroll_count > 0`).as('withExcessiveScrolling'),
      count(sql`failed_request_count > 0`).as('withFailed'),
    ])
    .executeTakeFirstOrThrow();
  const sessions = n(row.sessions);
  const empty = { referrer: [], device: [], browser: [], os: [], screen: [], country: [] };
  if (!sessions) return { ...zero(), tops: empty };
  const hours = await base
    .select([
      hour.as('t'),
      sql<number>`count(*)`.as('s'),
      sql<number>`sum(is_bot)`.as('b'),
      count(sql`error_count > 0`).as('e'),
      count(FRUSTRATED).as('f'),
    ])
    .groupBy(hour)
    .execute();
  const tops = { ...empty } as Record<TopName, Top>;
  for (const name of Object.keys(TOPS) as TopName[]) tops[name] = await top(TOPS[name]);
  return {
    sessions,
    bots: n(row.bots),
    pages: n(row.pages),
    withErrors: n(row.withErrors),
    withFrustration: n(row.withFrustration),
    rageClicks: n(row.rageClicks),
    deadClicks: n(row.deadClicks),
    quickBacks: n(row.quickBacks),
    excessiveScrolls: n(row.excessiveScrolls),
    errors: n(row.errors),
    failedRequests: n(row.failedRequests),
    withRage: n(row.withRage),
    withDead: n(row.withDead),
    withQuickBacks: n(row.withQuickBacks),
    withExcessiveScrolling: n(row.withExcessiveScrolling),
    withFailed: n(row.withFailed),
    hours: hours.map((h) => [n(h.t), n(h.s), n(h.b), n(h.e), n(h.f)]),
    durations: await histogram(DURATION),
    actives: await histogram(sql`active_ms`),
    tops,
    pageRows: await pageRows(db, base),
    pagesFrom: Math.min(sessions, PAGES_PER_SUMMARY),
  };
}

function zero(): Omit<Summary, 'tops'> {
  return {
    ...{ sessions: 0, bots: 0, pages: 0, withErrors: 0, withFrustration: 0, rageClicks: 0, deadClicks: 0, quickBacks: 0, excessiveScrolls: 0, errors: 0 },
    ...{ failedRequests: 0, withRage: 0, withDead: 0, withQuickBacks: 0, withExcessiveScrolling: 0, withFailed: 0, hours: [], durations: [], actives: [], pageRows: [], pagesFrom: 0 },
  };
}

/** `pages` as a JSON array of strings (quotes and backslashes escaped). */
const jsonList = sql`'["' || replace(replace(replace(s.pages, '\\', '\\\\'), '"', '\\"'), char(10), '","') || '"]'`;

/**
 * Pages by views: each session's `pages` (the paths it loaded, at most 50) split into rows. The
 * first is its entry, the last its exit; rage clicks, dead clicks and errors count the sessions
 * that viewed the page and had them.
 */
async function pageRows(db: Executor, base: Base): Promise<PageRow[]> {
  const inner = base
    .select(['id', 'pages', 'rage_click_count', 'dead_click_count', 'error_count'])
    .where('pages', 'is not', null)
    .orderBy('started_at', 'desc')
    .limit(PAGES_PER_SUMMARY);
  const last = sql`(length(s.pages) - length(replace(s.pages, ${'\n'}, '')))`;
  const split = isPostgres(db)
    ? sql`cross join lateral unnest(string_to_array(s.pages, ${'\n'})) with ordinality as j(value, position)`
    : sql`cross join json_each(case when json_valid(${jsonList}) then ${jsonList} else '[]' end) as j`;
  const position = isPostgres(db) ? sql`(j.position - 1)` : sql`j.key`;
  const distinctWith = (column: string) => sql`count(distinct case when ${sql.ref(`s.${column}`)} > 0 then s.id end)`;
  const { rows } = await sql<Record<string, unknown>>`
    select j.value as path, count(*) as views,
      ${count(sql`${position} = 0`)} as entries, ${count(sql`${position} = ${last}`)} as exits,
      ${distinctWith('rage_click_count')} as rage, ${distinctWith('dead_click_count')} as dead, ${distinctWith('error_count')} as errors
    from (${inner}) as s ${split}
    group by j.value order by views desc, j.value limit ${sql.lit(TOP_KEEP)}`.execute(db);
  return rows.map((r) => [String(r.path), n(r.views), n(r.entries), n(r.exits), n(r.rage), n(r.dead), n(r.errors)]);
}
