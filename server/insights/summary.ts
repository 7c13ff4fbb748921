import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/executor.js';
import type { SessionFilters } from '../sessions/query.js';
import { SESSION_DURATION_MS } from '../sessions/duration.js';
import { FRUSTRATED } from '../sessions/repository.js';
import { timeBinSql } from './bins.js';
import { HOUR_MS } from '../../common/insights.js';
import { pageRows, PAGES_PER_SUMMARY, type PageRow } from './pages.js';
import { matching, TOP_KEEP, type Matching } from './matching.js';

// A summary of the sessions started in a span of time, in a form that adds up: the dashboard of
// a range is the sum of its days' summaries (server/insights/days.ts). Counts add; medians come
// from duration histograms (to the second under 10 minutes, coarser above); top lists keep their
// first TOP_KEEP values a day, so a value outside every day's first 100 is left out of a range.

export type Top = [value: string | null, sessions: number, extra: string | null][];
/** Sessions by their entry page's UTM parameters: [source, medium, campaign, sessions]. */
export type UtmRow = [source: string | null, medium: string | null, campaign: string | null, sessions: number];
/** An hour's frustration: rage clicks, dead clicks, quick backs, excessive scrolls, errors, failed requests. */
export type HourKinds = [rage: number, dead: number, quickBacks: number, scrolls: number, errors: number, failed: number];

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
  /** [hour start, sessions, bots, with errors, with frustration, ...HourKinds] */
  hours: [number, number, number, number, number, ...HourKinds][];
  /** [duration rounded (ms), sessions] */
  durations: [number, number][];
  actives: [number, number][];
  tops: Record<TopName, Top>;
  utm: UtmRow[];
  pageRows: PageRow[];
  pagesFrom: number;
}

export type TopName = 'referrer' | 'device' | 'browser' | 'os' | 'screen' | 'country';

const n = (value: unknown) => Number(value ?? 0);
const count = (condition: RawBuilder<unknown>) => sql`sum(case when ${condition} then 1 else 0 end)`;

const TOPS: Record<TopName, RawBuilder<unknown>> = {
  referrer: sql`referrer`,
  device: sql`device`,
  browser: sql`browser_name`,
  os: sql`os`,
  screen: sql`case when screen_width is null or screen_height is null then null else ${sql.ref('screen_width')} || '×' || ${sql.ref('screen_height')} end`,
  country: sql`country_code`,
};

/** The counters of an hour's frustration kinds, in HourKinds' order. */
const KINDS = ['rage_click_count', 'dead_click_count', 'quick_back_count', 'excessive_scroll_count', 'error_count', 'failed_request_count'] as const;

/** The summary of a campaign's sessions started in [from, to), with the list's filters. */

export async function summarize(db: Executor, campaignId: string, from: number, to: number, filters: SessionFilters = {}): Promise<Summary> {
  const base = matching(db, campaignId, { ...filters, from, to });
  const hour = sql<number>`(started_at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
  const histogram = async (value: RawBuilder<unknown>) => {
    const rows = await base
      .select([timeBinSql(value).as('v'), sql<number>`count(*)`.as('c')])
      .groupBy(timeBinSql(value))
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
      ...KINDS.map((column, i) => sql<number>`sum(${sql.ref(column)})`.as(`k${i}`)),
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
    hours: hours.map((h) => {
      const kinds = KINDS.map((_, i) => n((h as Record<string, unknown>)[`k${i}`])) as HourKinds;
      return [n(h.t), n(h.s), n(h.b), n(h.e), n(h.f), ...kinds];
    }),
    durations: await histogram(SESSION_DURATION_MS),
    actives: await histogram(sql`active_ms`),
    tops,
    utm: await utmRows(base),
    pageRows: await pageRows(db, base),
    pagesFrom: Math.min(sessions, PAGES_PER_SUMMARY),
  };
}

function zero(): Omit<Summary, 'tops'> {
  return {
    ...{ sessions: 0, bots: 0, pages: 0, withErrors: 0, withFrustration: 0, rageClicks: 0, deadClicks: 0, quickBacks: 0, excessiveScrolls: 0, errors: 0 },
    ...{
      failedRequests: 0,
      withRage: 0,
      withDead: 0,
      withQuickBacks: 0,
      withExcessiveScrolling: 0,
      withFailed: 0,
      hours: [],
      durations: [],
      actives: [],
      utm: [],
      pageRows: [],
      pagesFrom: 0,
    },
  };
}

/** Sessions by UTM source, medium and campaign, most first: only sessions whose entry page had any. */
async function utmRows(base: Matching): Promise<UtmRow[]> {
  const rows = await base
    .select(['utm_source', 'utm_medium', 'utm_campaign', sql<number>`count(*)`.as('sessions')])
    .where((eb) => eb.or([eb('utm_source', 'is not', null), eb('utm_medium', 'is not', null), eb('utm_campaign', 'is not', null)]))
    .groupBy(['utm_source', 'utm_medium', 'utm_campaign'])
    .orderBy(sql`count(*)`, 'desc')
    .limit(TOP_KEEP)
    .execute();
  return rows.map((r) => [r.utm_source, r.utm_medium, r.utm_campaign, n(r.sessions)]);
}
