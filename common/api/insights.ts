import { Type, type Static, type TSchema } from 'typebox';
import { Nullable } from './shared.js';
import { SessionsQuery } from './sessions.js';

/** GET /api/v1/insights/{campaignId}?from&to&… (the sessions list's filters, without paging). */
export const InsightsQuery = Type.Omit(SessionsQuery, ['cursor', 'limit', 'sort'], { additionalProperties: false });
export type InsightsQuery = Static<typeof InsightsQuery>;

export const InsightsParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });

const count = () => Type.Integer({ minimum: 0 });

/** A value and how many sessions have it (a referrer, device, browser, OS, screen or country). */
const Top = <T extends Record<string, TSchema>>(keys: T) => Type.Array(Type.Object({ ...keys, sessions: count() }));

export const Insights = Type.Object({
  from: Type.Number(),
  to: Type.Number(),
  /** The series' bucket in ms: an hour for ranges up to 2 days, else a day. */
  bucketMs: Type.Number(),
  totals: Type.Object({
    sessions: count(),
    humans: count(),
    bots: count(),
    medianDurationMs: Type.Number(),
    medianActiveMs: Type.Number(),
    /** Page loads per session. */
    pagesPerSession: Type.Number(),
    withErrors: count(),
    /** Sessions with rage or dead clicks. */
    withFrustration: count(),
  }),
  /**
   * Sessions started in each bucket (every bucket of the range, empty ones as zero), and the
   * frustration those sessions had: rage and dead clicks, quick backs, excessive scrolls, errors and failed requests.
   */
  series: Type.Array(
    Type.Object({
      ...{ t: Type.Number(), humans: count(), bots: count(), withErrors: count(), withFrustration: count() },
      ...{ rageClicks: count(), deadClicks: count(), quickBacks: count(), excessiveScrolls: count(), errors: count(), failedRequests: count() },
    }),
  ),
  /**
   * Pages by views, from the paths each session loaded; sessions count those that viewed the page (null when a day kept
   * before they were counted is in the range); rage/dead/errors count sessions that viewed the page and had them.
   * medianMsOnPage: the median time from a visit's load to the session's next page (the last one: its last activity); null when no visit was timed.
   */
  pages: Type.Array(
    Type.Object({
      ...{ path: Type.String(), views: count(), entries: count(), exits: count(), rageClicks: count(), deadClicks: count(), errors: count() },
      medianMsOnPage: Nullable(Type.Number()),
      sessions: Nullable(count()),
    }),
  ),
  /** How many sessions the pages were counted over: all of them up to 20,000 a day (a day's newest). */
  pagesFromSessions: count(),
  /** Sessions by their entry page's utm_source, utm_medium and utm_campaign (null: not given); only sessions that had any. */
  utm: Type.Array(Type.Object({ source: Nullable(Type.String()), medium: Nullable(Type.String()), campaign: Nullable(Type.String()), sessions: count() })),
  /** null is a direct visit (no referrer). */
  referrers: Top({ referrer: Nullable(Type.String()) }),
  devices: Top({ device: Nullable(Type.String()) }),
  /** The browser's name as the browser filter takes it ("chrome"). */
  browsers: Top({ browser: Nullable(Type.String()) }),
  os: Top({ os: Nullable(Type.String()) }),
  /** "1920×1080", or null when the tracker did not report it. */
  screens: Top({ screen: Nullable(Type.String()) }),
  countries: Top({ countryCode: Nullable(Type.String()), country: Nullable(Type.String()) }),
  /** JavaScript errors by message (its first 200 characters), the most frequent 20: occurrences, sessions, first and last time seen. */
  errors: Type.Array(Type.Object({ message: Type.String(), count: count(), sessions: count(), firstSeen: Type.Number(), lastSeen: Type.Number() })),
  frustration: Type.Object({
    rageClicks: count(),
    deadClicks: count(),
    /** Pages left and loaded again within 5 s; bursts of scrolling back and forth (common/session-facts.ts). */
    quickBacks: count(),
    excessiveScrolls: count(),
    errors: count(),
    failedRequests: count(),
    sessionsWithRageClicks: count(),
    sessionsWithDeadClicks: count(),
    sessionsWithQuickBacks: count(),
    sessionsWithExcessiveScrolling: count(),
    sessionsWithErrors: count(),
    sessionsWithFailedRequests: count(),
  }),
});
export type Insights = Static<typeof Insights>;
