// The tables the site-wide views read (server/heatmaps, server/insights, server/funnels): aggregates
// and side tables kept beside the sessions, never written by ingest's hot path.

/** Heatmaps (migration 0021, server/heatmaps): aggregates per campaign, page, device class and day (days since the epoch, UTC). */
interface HeatmapKey {
  campaign_id: string;
  page: string;
  device: string;
  day: number;
}
interface HeatCounts {
  clicks: number;
  rage_clicks: number;
  dead_clicks: number;
  error_clicks: number;
}
export interface HeatmapPagesTable extends HeatmapKey, HeatCounts {
  views: number;
  sessions: number;
  rage_sessions: number;
  dead_sessions: number;
  error_sessions: number;
  /** Sum of each view's fold (the depth seen before any scroll, percent). */
  fold_sum: number;
  snapshot_session: string | null;
  snapshot_at: number | null;
}
export interface HeatmapElementsTable extends HeatmapKey, HeatCounts {
  selector: string;
  text: string;
  /** Sums of where in the element clicks landed, in thousandths of its width and height. */
  fx_sum: number;
  fy_sum: number;
}
export interface HeatmapBinsTable extends HeatmapKey, HeatCounts {
  bin: number;
}
export interface HeatmapScrollTable extends HeatmapKey {
  depth: number;
  reached: number;
}
/** One session's contribution to one page, device class and day (JSON, server/heatmaps/fed.ts): what its deletion subtracts. */
export interface HeatmapUnfedTable extends HeatmapKey {
  session_id: string;
  fed: string;
}
export interface HeatmapFeedsTable extends HeatmapUnfedTable {
  /** The session's last moment on the page: the snapshot's candidate when the page's own goes. */
  last_at: number;
}
export interface HeatmapPatternsTable {
  campaign_id: string;
  pattern: string;
  position: number;
}
export interface HeatmapTables {
  heatmap_pages: HeatmapPagesTable;
  heatmap_elements: HeatmapElementsTable;
  heatmap_bins: HeatmapBinsTable;
  heatmap_scroll: HeatmapScrollTable;
  heatmap_feeds: HeatmapFeedsTable;
  heatmap_unfed: HeatmapUnfedTable;
  heatmap_patterns: HeatmapPatternsTable;
}

/** A campaign's insights for one UTC day (server/insights/days.ts); gone as soon as a session of that day changes. */
export interface InsightsDaysTable {
  campaign_id: string;
  /** The day's start, epoch ms (UTC). */
  day: number;
  /** JSON: the day's summary (server/insights/summary.ts). */
  summary: string;
  computed_at: number;
}

/** A campaign's funnel: ordered steps within a time window. */
export interface FunnelsTable {
  id: string;
  campaign_id: string;
  name: string;
  /** JSON: the steps (common/api/funnels.ts). */
  steps: string;
  within_ms: number;
  created_at: number;
  updated_at: number;
}

/** A page a session loaded, in order: written by a trigger when the session's `pages` grows. */
export interface SessionPagesTable {
  campaign_id: string;
  session_id: string;
  position: number;
  path: string;
  /** When ingest stored the batch that told the page (the session's start for its first page). */
  at: number;
}

/** What a session did, in order, for funnels with click and event steps (migration 0028, server/funnels/visits.ts). */
export interface SessionVisitsTable {
  campaign_id: string;
  session_id: string;
  /** The batch's seq × 1024 + the visit's place in it: orders visits of one millisecond. */
  seq: number;
  kind: 'page' | 'click' | 'event';
  /** The page's path, the clicked element's selector path, or the event's name. */
  value: string;
  /** The clicked element's short text ('' for the others). */
  text: string;
  /** The page's clock (the event's timestamp): read for order and gaps within the session only. */
  at: number;
}

/** A funnel's tally of one UTC day's sessions (server/funnels/days.ts); gone when a session of that day changes. */
export interface FunnelDaysTable {
  funnel_id: string;
  campaign_id: string;
  day: number;
  /** JSON: sessions reaching each step and the times between steps (a histogram). */
  tally: string;
}

/** A session's JavaScript errors with one message (server/insights/errors.ts). Goes with its session. */
export interface SessionErrorsTable {
  campaign_id: string;
  session_id: string;
  /** The first 200 characters of the message. */
  message: string;
  count: number;
  first_at: number;
  last_at: number;
}
