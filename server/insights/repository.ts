import type { Executor } from '../db/executor.js';
import { hasSessionFilters, type SessionFilters } from '../sessions/query.js';
import type { Insights } from '../../common/api/insights.js';
import { addHistograms, bucketStarts, histogramMedian, TOP_ROWS, type InsightsRange } from '../../common/insights.js';
import { rangeSummaries } from './days.js';
import { summarize, type Summary, type Top, type TopName, type UtmRow } from './summary.js';
import { matching } from './matching.js';
import { addPages } from './pages.js';
import { errorGroups } from './errors.js';

// The insights dashboard, from the session rows alone (never the recorded chunks): the range's
// summaries (server/insights/days.ts: stored days and the rest computed) added up. With any of
// the list's filters the range is summarized from the sessions in one go (no day is kept for
// a filter).

/** Most sessions first; ties by value, the unknown last. */
function addTops(parts: Top[]): { value: string | null; sessions: number; extra: string | null }[] {
  const sums = new Map<string | null, { value: string | null; sessions: number; extra: string | null }>();
  for (const part of parts) {
    for (const [value, sessions, extra] of part) {
      const row = sums.get(value) ?? { value, sessions: 0, extra };
      row.sessions += sessions;
      row.extra = row.extra ?? extra;
      sums.set(value, row);
    }
  }
  const order = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
  return [...sums.values()].sort((a, b) => b.sessions - a.sessions || order(a.value, b.value)).slice(0, TOP_ROWS);
}

/** UTM rows added up: most sessions first, ties by source, medium and campaign (a day stored without them has none). */
function addUtm(parts: (UtmRow[] | undefined)[]): Insights['utm'] {
  const key = (row: UtmRow) => JSON.stringify(row.slice(0, 3));
  const sums = new Map<string, UtmRow>();
  for (const row of parts.flatMap((part) => part ?? [])) {
    const sum = sums.get(key(row));
    if (sum) sum[3] += row[3];
    else sums.set(key(row), [...row]);
  }
  return [...sums.values()]
    .sort((a, b) => b[3] - a[3] || (key(a) < key(b) ? -1 : 1))
    .slice(0, TOP_ROWS)
    .map(([source, medium, campaign, sessions]) => ({ source, medium, campaign, sessions }));
}

/** Each bucket's sessions, bots, with errors, with frustration, and frustration kinds (HourKinds), added up from hours. */
function addBuckets(parts: Summary[], bucketMs: number): Map<number, number[]> {
  const buckets = new Map<number, number[]>();
  for (const part of parts) {
    for (const [t, ...counts] of part.hours) {
      const start = Math.floor(t / bucketMs) * bucketMs;
      const bucket = buckets.get(start) ?? new Array<number>(10).fill(0);
      counts.forEach((value, i) => (bucket[i] += value ?? 0));
      buckets.set(start, bucket);
    }
  }
  return buckets;
}

/** The dashboard from summaries that add up. */
export function insightsOf(parts: Summary[], range: InsightsRange, errors: Insights['errors'] = []): Insights {
  // A day stored before a count existed has none of it (0025 drops stored days; this is belt and braces).
  const sum = (key: keyof Summary) => parts.reduce((total, part) => total + Number(part[key] ?? 0), 0);
  const sessions = sum('sessions');
  const bots = sum('bots');
  const buckets = addBuckets(parts, range.bucketMs);
  const tops = (name: TopName) => addTops(parts.map((part) => part.tops[name]));
  return {
    from: range.from,
    to: range.to,
    bucketMs: range.bucketMs,
    totals: {
      sessions,
      humans: sessions - bots,
      bots,
      medianDurationMs: histogramMedian(addHistograms(parts.map((part) => part.durations))),
      medianActiveMs: histogramMedian(addHistograms(parts.map((part) => part.actives))),
      pagesPerSession: sessions ? Math.round((sum('pages') / sessions) * 100) / 100 : 0,
      withErrors: sum('withErrors'),
      withFrustration: sum('withFrustration'),
    },
    series: bucketStarts(range).map((t) => {
      const [s, b, e, f, rageClicks, deadClicks, quickBacks, excessiveScrolls, errors, failedRequests] = buckets.get(t) ?? new Array<number>(10).fill(0);
      return {
        t,
        humans: s - b,
        bots: b,
        withErrors: e,
        withFrustration: f,
        ...{ rageClicks, deadClicks, quickBacks, excessiveScrolls, errors, failedRequests },
      };
    }),
    pages: addPages(parts.map((part) => part.pageRows)),
    pagesFromSessions: sum('pagesFrom'),
    utm: addUtm(parts.map((part) => part.utm)),
    referrers: tops('referrer').map((r) => ({ referrer: r.value, sessions: r.sessions })),
    devices: tops('device').map((r) => ({ device: r.value, sessions: r.sessions })),
    browsers: tops('browser').map((r) => ({ browser: r.value, sessions: r.sessions })),
    os: tops('os').map((r) => ({ os: r.value, sessions: r.sessions })),
    screens: tops('screen').map((r) => ({ screen: r.value, sessions: r.sessions })),
    countries: tops('country').map((r) => ({ countryCode: r.value, country: r.extra, sessions: r.sessions })),
    errors,
    frustration: {
      rageClicks: sum('rageClicks'),
      deadClicks: sum('deadClicks'),
      quickBacks: sum('quickBacks'),
      excessiveScrolls: sum('excessiveScrolls'),
      errors: sum('errors'),
      failedRequests: sum('failedRequests'),
      sessionsWithRageClicks: sum('withRage'),
      sessionsWithDeadClicks: sum('withDead'),
      sessionsWithQuickBacks: sum('withQuickBacks'),
      sessionsWithExcessiveScrolling: sum('withExcessiveScrolling'),
      sessionsWithErrors: sum('withErrors'),
      sessionsWithFailedRequests: sum('withFailed'),
    },
  };
}

/**
 * The whole dashboard for a campaign's sessions in the range, with the list's filters. Its
 * computing reads go to `reader` (a heavy read's, off the event loop); kept days to `db`.
 */
export async function campaignInsights(
  db: Executor,
  campaignId: string,
  filters: SessionFilters,
  range: InsightsRange,
  now = Date.now(),
  reader: Executor = db,
): Promise<Insights> {
  const parts = hasSessionFilters(filters)
    ? [await summarize(reader, campaignId, range.from, range.to, filters)]
    : await rangeSummaries(db, campaignId, range.from, range.to, now, reader);
  // Errors by message are counted on each call (session_errors holds only sessions that had one).
  const ids = matching(reader, campaignId, { ...filters, from: range.from, to: range.to }).select('id');
  return insightsOf(parts, range, await errorGroups(reader, campaignId, ids));
}
