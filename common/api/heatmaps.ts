import { Type, type Static } from 'typebox';
import { Nullable } from './shared.js';
import { MAX_TIME } from '../limits.js';
import { MAX_PATTERNS, PATH_MAX, SELECTOR_MAX } from '../heatmaps.js';
import { MAX_PATTERN_CHARS } from '../page-pattern.js';
import { SessionsQuery } from './sessions.js';
import { VIEWPORT_CLASSES } from '../devices.js';

export const HeatmapParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });

const time = () => Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME }));
const count = () => Type.Integer({ minimum: 0 });
/** A heatmap's `device`: its viewport class. */
const Device = Type.Enum(VIEWPORT_CLASSES);

/** GET /api/v1/heatmaps/{campaignId}/pages?from&to */
export const HeatmapPagesQuery = Type.Object({ from: time(), to: time() }, { additionalProperties: false });

export const HeatmapPages = Type.Object({
  from: Type.Number(),
  to: Type.Number(),
  /** Pages (paths or the owner's patterns) by views, most first. */
  pages: Type.Array(
    Type.Object({
      path: Type.String(),
      views: count(),
      sessions: count(),
      clicks: count(),
      devices: Type.Object({ desktop: count(), tablet: count(), mobile: count() }),
    }),
  ),
});
export type HeatmapPages = Static<typeof HeatmapPages>;

/**
 * The sessions list's filters a heatmap takes (type, country, browser, has errors, user, event, …):
 * all but paging and sort, and but device, from and to, which a heatmap has as its own (its
 * device class by viewport width, the days of its heat).
 */
export const HeatmapSessionFilters = Type.Omit(SessionsQuery, ['cursor', 'limit', 'sort', 'device', 'from', 'to']);
export type HeatmapSessionFilters = Static<typeof HeatmapSessionFilters>;

/**
 * GET /api/v1/heatmaps/{campaignId}?path&device&from&to&…list filters: without path, the page with
 * most views; without device, its device class with most views (both over every session).
 */
export const HeatmapQuery = Type.Object(
  {
    ...HeatmapSessionFilters.properties,
    path: Type.Optional(Type.String({ minLength: 1, maxLength: PATH_MAX })),
    device: Type.Optional(Device),
    from: time(),
    to: time(),
  },
  { additionalProperties: false },
);
export type HeatmapQuery = Static<typeof HeatmapQuery>;

const Layers = { clicks: count(), rageClicks: count(), deadClicks: count(), errorClicks: count() };

export const Heatmap = Type.Object({
  path: Type.String(),
  device: Device,
  from: Type.Number(),
  to: Type.Number(),
  views: count(),
  /** Sessions that fed this page at this device class (a session on two days counts on each). */
  sessions: count(),
  ...Layers,
  /** Sessions with at least one click in each layer. */
  layerSessions: Type.Object({ rage: count(), dead: count(), error: count() }),
  /** The views' average fold: how much of the page showed before any scroll (percent). */
  averageFold: Type.Number(),
  /** The most clicked elements (and those with the most rage, dead and error clicks), with where in them clicks landed on average (0 to 1). */
  elements: Type.Array(Type.Object({ selector: Type.String(), text: Type.String(), ...Layers, fx: Type.Number(), fy: Type.Number() })),
  /** Page-position bins: column of the viewport's width (of binColumns), row of binRowPx pixels down the page. */
  binColumns: count(),
  binRowPx: count(),
  bins: Type.Array(Type.Object({ x: count(), y: count(), ...Layers })),
  /** Share of views that reached each depth, as counts. */
  scroll: Type.Array(Type.Object({ depth: count(), reached: count() })),
  /** Where the page is rebuilt: a recent moment of a session on it at this device class. */
  snapshot: Nullable(Type.Object({ sessionId: Type.String(), timestamp: Type.Number() })),
  /** With a session filter: true when only the newest of the matching sessions' contributions were counted (server/heatmaps/filtered.ts). */
  sampled: Type.Boolean(),
});
export type Heatmap = Static<typeof Heatmap>;

/** GET /api/v1/heatmaps/{campaignId}/clicks?path&device&selector&from&to: the sessions that clicked one element. */
export const HeatmapClicksQuery = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: PATH_MAX }),
    device: Device,
    selector: Type.String({ minLength: 1, maxLength: SELECTOR_MAX }),
    from: time(),
    to: time(),
    ...HeatmapSessionFilters.properties,
  },
  { additionalProperties: false },
);
export const HeatmapClicks = Type.Object({
  /**
   * Most recent first; `at` is the session's first click on the element, `startedAt` its recording's
   * first event (both on the visitor's clock: the replay opens `at - startedAt` in, less a second).
   */
  sessions: Type.Array(
    Type.Object({
      sessionId: Type.String(),
      startedAt: Type.Number(),
      at: Type.Number(),
      clicks: count(),
      rageClicks: count(),
      deadClicks: count(),
      errorClicks: count(),
    }),
  ),
});
export type HeatmapClicks = Static<typeof HeatmapClicks>;

/** GET and PUT /api/v1/heatmaps/{campaignId}/patterns: the owner's page patterns ("/product/*"), first match wins. */
export const HeatmapPatterns = Type.Object(
  { patterns: Type.Array(Type.String({ minLength: 1, maxLength: MAX_PATTERN_CHARS }), { maxItems: MAX_PATTERNS }) },
  { additionalProperties: false },
);
export type HeatmapPatterns = Static<typeof HeatmapPatterns>;
