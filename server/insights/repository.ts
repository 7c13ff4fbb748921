import { sql, type RawBuilder } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { filtered, type SessionFilters } from '../sessions/repository.js';
import type { Insights } from '../../common/api/insights.js';
import { bucketStarts, PAGES_FROM_SESSIONS, TOP_PAGES, TOP_ROWS, type InsightsRange } from '../../common/insights.js';

// The insights dashboard, from the session rows alone (never the recorded chunks): each part is
// one aggregate over the campaign's sessions in the range (the index range campaign_id,
// started_at), each list one GROUP BY with a LIMIT, written the same way for both databases
// except the two functions SQLite and PostgreSQL spell differently (median, splitting a list).

type Rows<T> = Promise<{ rows: T[] }>;
const n = (value: unknown) => Number(value ?? 0);

/** The campaign's sessions in the range, with the list's filters, as a subquery. */
function matching(db: Executor, campaignId: string, filters: SessionFilters, range: InsightsRange) {
  return filtered(db.selectFrom('sessions').where('campaign_id', '=', campaignId), { ...filters, from: range.from, to: range.to });
}

type Matching = ReturnType<typeof matching>;

/** A session's duration as the list shows it (at least its active time). */
const DURATION = sql`case when duration_ms > active_ms then duration_ms else active_ms end`;
const count = (condition: RawBuilder<unknown>) => sql`sum(case when ${condition} then 1 else 0 end)`;

function median(db: Executor, column: RawBuilder<unknown>) {
  return isPostgres(db) ? sql`percentile_cont(0.5) within group (order by ${column})` : sql`median(${column})`;
}

async function totals(db: Executor, base: Matching) {
  const row = await base
    .select([
      sql<number>`count(*)`.as('sessions'),
      sql<number>`sum(is_bot)`.as('bots'),
      sql<number>`sum(page_count)`.as('pages'),
      median(db, DURATION).as('medianDuration'),
      median(db, sql`active_ms`).as('medianActive'),
      count(sql`error_count > 0`).as('withErrors'),
      count(sql`rage_click_count > 0 or dead_click_count > 0`).as('withFrustration'),
      sql`sum(rage_click_count)`.as('rageClicks'),
      sql`sum(dead_click_count)`.as('deadClicks'),
      sql`sum(error_count)`.as('errors'),
      sql`sum(failed_request_count)`.as('failedRequests'),
      count(sql`rage_click_count > 0`).as('withRage'),
      count(sql`dead_click_count > 0`).as('withDead'),
      count(sql`failed_request_count > 0`).as('withFailed'),
    ])
    .executeTakeFirstOrThrow();
  const sessions = n(row.sessions);
  const bots = n(row.bots);
  return {
    totals: {
      sessions,
      humans: sessions - bots,
      bots,
      medianDurationMs: Math.round(n(row.medianDuration)),
      medianActiveMs: Math.round(n(row.medianActive)),
      pagesPerSession: sessions ? Math.round((n(row.pages) / sessions) * 100) / 100 : 0,
      withErrors: n(row.withErrors),
      withFrustration: n(row.withFrustration),
    },
    frustration: {
      rageClicks: n(row.rageClicks),
      deadClicks: n(row.deadClicks),
      errors: n(row.errors),
      failedRequests: n(row.failedRequests),
      sessionsWithRageClicks: n(row.withRage),
      sessionsWithDeadClicks: n(row.withDead),
      sessionsWithErrors: n(row.withErrors),
      sessionsWithFailedRequests: n(row.withFailed),
    },
  };
}

/** Sessions per hour or day; the bucket size is ours (an hour or a day), so it is written as a literal. */
async function series(base: Matching, range: InsightsRange): Promise<Insights['series']> {
  const bucket = sql<number>`(started_at / ${sql.lit(range.bucketMs)}) * ${sql.lit(range.bucketMs)}`;
  const rows = await base
    .select([
      bucket.as('t'),
      sql<number>`count(*)`.as('sessions'),
      sql<number>`sum(is_bot)`.as('bots'),
      count(sql`error_count > 0`).as('withErrors'),
      count(sql`rage_click_count > 0 or dead_click_count > 0`).as('withFrustration'),
    ])
    .groupBy(bucket)
    .execute();
  const byStart = new Map(rows.map((row) => [n(row.t), row]));
  return bucketStarts(range).map((t) => {
    const row = byStart.get(t);
    const bots = n(row?.bots);
    return { t, humans: n(row?.sessions) - bots, bots, withErrors: n(row?.withErrors), withFrustration: n(row?.withFrustration) };
  });
}

/** The top values of one column (or expression), most sessions first. */
async function top(base: Matching, value: RawBuilder<unknown>, limit = TOP_ROWS): Promise<{ value: string | null; sessions: number; extra: string | null }[]> {
  const rows = await base
    .select([value.as('value'), sql<number>`count(*)`.as('sessions'), sql<string | null>`max(country)`.as('extra')])
    .groupBy(value)
    .orderBy(sql`count(*)`, 'desc')
    // Ties by value, the unknown last: written out, as the databases sort nulls differently.
    .orderBy(sql`case when ${value} is null then 1 else 0 end`)
    .orderBy(value)
    .limit(limit)
    .execute();
  return rows.map((row) => ({ value: (row.value as string | null) ?? null, sessions: n(row.sessions), extra: row.extra }));
}

/**
 * Pages by views: each session's `pages` (the paths it loaded, newline-separated, at most 50)
 * split into rows, over the newest PAGES_FROM_SESSIONS sessions of the range (splitting costs
 * about 15 µs a session on SQLite: this bounds the call's time and memory). The first is its entry, the last its exit; rage clicks, dead clicks and
 * errors count the distinct sessions that viewed the page and had them.
 */
async function pages(db: Executor, base: Matching): Promise<Insights['pages']> {
  const inner = base
    .select(['id', 'pages', 'rage_click_count', 'dead_click_count', 'error_count'])
    .where('pages', 'is not', null)
    .orderBy('started_at', 'desc')
    .limit(PAGES_FROM_SESSIONS);
  const last = sql`(length(s.pages) - length(replace(s.pages, ${'\n'}, '')))`;
  const split = isPostgres(db)
    ? sql`cross join lateral unnest(string_to_array(s.pages, ${'\n'})) with ordinality as j(value, position)`
    : // SQLite has no split: the list as a JSON array (a path that is no JSON string is left out).
      sql`cross join json_each(case when json_valid(${jsonList}) then ${jsonList} else '[]' end) as j`;
  const position = isPostgres(db) ? sql`(j.position - 1)` : sql`j.key`;
  const distinctWith = (column: string) => sql`count(distinct case when ${sql.ref(`s.${column}`)} > 0 then s.id end)`;
  const { rows } = await (sql`
    select j.value as path, count(*) as views,
      ${count(sql`${position} = 0`)} as entries, ${count(sql`${position} = ${last}`)} as exits,
      ${distinctWith('rage_click_count')} as rage, ${distinctWith('dead_click_count')} as dead, ${distinctWith('error_count')} as errors
    from (${inner}) as s ${split}
    group by j.value order by views desc, j.value limit ${sql.lit(TOP_PAGES)}`.execute(db) as unknown as Rows<Record<string, unknown>>);
  return rows.map((row) => ({
    path: String(row.path),
    views: n(row.views),
    entries: n(row.entries),
    exits: n(row.exits),
    rageClicks: n(row.rage),
    deadClicks: n(row.dead),
    errors: n(row.errors),
  }));
}

/** `pages` as a JSON array of strings (quotes and backslashes escaped). */
const jsonList = sql`'["' || replace(replace(replace(s.pages, '\\', '\\\\'), '"', '\\"'), char(10), '","') || '"]'`;

/** The whole dashboard for a campaign's sessions in the range, with the list's filters. */
export async function campaignInsights(db: Executor, campaignId: string, filters: SessionFilters, range: InsightsRange): Promise<Insights> {
  const base = matching(db, campaignId, filters, range);
  const screen = sql`case when screen_width is null or screen_height is null then null else ${sql.ref('screen_width')} || '×' || ${sql.ref('screen_height')} end`;
  const { totals: sums, frustration } = await totals(db, base);
  const [buckets, pageRows, referrers, devices, browsers, os, screens, countries] = await Promise.all([
    series(base, range),
    pages(db, base),
    top(base, sql`referrer`),
    top(base, sql`device`),
    top(base, sql`browser_name`),
    top(base, sql`os`),
    top(base, screen),
    top(base, sql`country_code`),
  ]);
  return {
    from: range.from,
    to: range.to,
    bucketMs: range.bucketMs,
    totals: sums,
    series: buckets,
    pages: pageRows,
    pagesFromSessions: Math.min(sums.sessions, PAGES_FROM_SESSIONS),
    referrers: referrers.map((r) => ({ referrer: r.value, sessions: r.sessions })),
    devices: devices.map((r) => ({ device: r.value, sessions: r.sessions })),
    browsers: browsers.map((r) => ({ browser: r.value, sessions: r.sessions })),
    os: os.map((r) => ({ os: r.value, sessions: r.sessions })),
    screens: screens.map((r) => ({ screen: r.value, sessions: r.sessions })),
    countries: countries.map((r) => ({ countryCode: r.value, country: r.extra, sessions: r.sessions })),
    frustration,
  };
}
