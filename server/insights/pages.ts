import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { Insights } from '../../common/api/insights.js';
import { addHistograms, histogramMedian, HOUR_MS, TOP_PAGES, type TimeBins } from '../../common/insights.js';
import { timeBinSql } from './bins.js';
import { TOP_KEEP, type Matching } from './matching.js';

// The dashboard's top pages: views, entries and exits from each session's `pages` column, the
// frustration columns from its counters, and the time on page from session_pages (when each page
// was loaded): a visit lasts until the session's next page, the last one until its last activity.
// Times are kept as histograms so that days add up, as the session medians are.

/** The pages of at most this many sessions (a span's newest) are counted in one summary. */
export const PAGES_PER_SUMMARY = 20_000;

/** [time on page rounded (ms), visits] */
type Histogram = [number, number][];
/** `sessions` (that viewed the page) is missing from a day kept before it was counted. */
export type PageRow = [
  path: string,
  views: number,
  entries: number,
  exits: number,
  rage: number,
  dead: number,
  errors: number,
  times: Histogram,
  sessions?: number,
];

const n = (value: unknown) => Number(value ?? 0);
const count = (condition: RawBuilder<unknown>) => sql`sum(case when ${condition} then 1 else 0 end)`;

/**
 * Times on page are binned coarser than the session medians' (TIME_BINS), since each of a day's
 * 100 pages keeps one: 1 s under 10 s, 5 s under a minute, 30 s under 10 minutes, 5 minutes under
 * an hour, else an hour.
 */
export const PAGE_TIME_BINS: TimeBins = [
  [10_000, 1000],
  [60_000, 5000],
  [600_000, 30_000],
  [HOUR_MS, 300_000],
  [Infinity, HOUR_MS],
];
const pageTimeBin = (value: RawBuilder<unknown>) => timeBinSql(value, PAGE_TIME_BINS);

/** The sessions whose pages are counted: those with pages, the newest PAGES_PER_SUMMARY. */
const counted = (base: Matching) =>
  base
    .select(['campaign_id', 'id', 'pages', 'last_activity_at', 'rage_click_count', 'dead_click_count', 'error_count'])
    .where('pages', 'is not', null)
    .orderBy('started_at', 'desc')
    .limit(PAGES_PER_SUMMARY);

/** `pages` as a JSON array of strings (quotes and backslashes escaped). */
const jsonList = sql`'["' || replace(replace(replace(s.pages, '\\', '\\\\'), '"', '\\"'), char(10), '","') || '"]'`;

/**
 * Pages by views: each session's `pages` (the paths it loaded, at most 50) split into rows. The
 * first is its entry, the last its exit; rage clicks, dead clicks and errors count the sessions
 * that viewed the page and had them.
 */
export async function pageRows(db: Executor, base: Matching): Promise<PageRow[]> {
  const inner = counted(base);
  const last = sql`(length(s.pages) - length(replace(s.pages, ${'\n'}, '')))`;
  const split = isPostgres(db)
    ? sql`cross join lateral unnest(string_to_array(s.pages, ${'\n'})) with ordinality as j(value, position)`
    : sql`cross join json_each(case when json_valid(${jsonList}) then ${jsonList} else '[]' end) as j`;
  const position = isPostgres(db) ? sql`(j.position - 1)` : sql`j.key`;
  const distinctWith = (column: string) => sql`count(distinct case when ${sql.ref(`s.${column}`)} > 0 then s.id end)`;
  const { rows } = await sql<Record<string, unknown>>`
    select j.value as path, count(*) as views, count(distinct s.id) as sessions,
      ${count(sql`${position} = 0`)} as entries, ${count(sql`${position} = ${last}`)} as exits,
      ${distinctWith('rage_click_count')} as rage, ${distinctWith('dead_click_count')} as dead, ${distinctWith('error_count')} as errors
    from (${inner}) as s ${split}
    group by j.value order by views desc, j.value limit ${sql.lit(TOP_KEEP)}`.execute(db);
  const times = await pageTimes(
    db,
    inner,
    rows.map((r) => String(r.path)),
  );
  return rows.map((r): PageRow => {
    const path = String(r.path);
    return [path, n(r.views), n(r.entries), n(r.exits), n(r.rage), n(r.dead), n(r.errors), times.get(path) ?? [], n(r.sessions)];
  });
}

/** The time on each of `paths` of the same sessions, as histograms by path. */
async function pageTimes(db: Executor, sessions: ReturnType<typeof counted>, paths: string[]): Promise<Map<string, Histogram>> {
  const byPath = new Map<string, Histogram>();
  if (!paths.length) return byPath;
  const spent = sql`(coalesce(q.at, s.last_activity_at) - p.at)`;
  const ms = sql`case when ${spent} < 0 then 0 else ${spent} end`;
  const { rows } = await sql<Record<string, unknown>>`
    select p.path as path, ${pageTimeBin(ms)} as v, count(*) as c
    from (${sessions}) as s
    join session_pages p on p.campaign_id = s.campaign_id and p.session_id = s.id
    left join session_pages q on q.campaign_id = p.campaign_id and q.session_id = p.session_id and q.position = p.position + 1
    where p.path in (${sql.join(paths)})
    group by p.path, ${pageTimeBin(ms)}`.execute(db);
  for (const row of rows) {
    const path = String(row.path);
    byPath.set(path, [...(byPath.get(path) ?? []), [n(row.v), n(row.c)]]);
  }
  for (const histogram of byPath.values()) histogram.sort((a, b) => a[0] - b[0]);
  return byPath;
}

/** The top pages of summaries added up (a day stored before times were kept has none). */
export function addPages(parts: PageRow[][]): Insights['pages'] {
  const sums = new Map<string, PageRow>();
  for (const part of parts) {
    for (const row of part) {
      const sum = sums.get(row[0]);
      if (!sum) sums.set(row[0], [row[0], row[1], row[2], row[3], row[4], row[5], row[6], [...(row[7] ?? [])], row[8]]);
      else {
        for (let i = 1; i < 7; i++) (sum[i] as number) += row[i] as number;
        sum[7] = addHistograms([sum[7], row[7] ?? []]);
        sum[8] = sum[8] === undefined || row[8] === undefined ? undefined : sum[8] + row[8];
      }
    }
  }
  return [...sums.values()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOP_PAGES)
    .map(([path, views, entries, exits, rageClicks, deadClicks, errors, times, sessions]) => ({
      ...{ path, views, sessions: sessions ?? null, entries, exits, rageClicks, deadClicks, errors },
      medianMsOnPage: times.length ? histogramMedian(times) : null,
    }));
}
