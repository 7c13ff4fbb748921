import { Type, type Static } from 'typebox';
import { Nullable } from './shared.js';

export const ReplayParams = Type.Object({
  campaignId: Type.String({ maxLength: 64 }),
  sessionId: Type.String({ maxLength: 64 }),
});

export const DemoQuery = Type.Object({ isMobile: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) });

/** An rrweb event as stored and replayed: `type` is rrweb's EventType. */
export const ReplayEvent = Type.Object({ type: Type.Number(), data: Type.Unknown(), timestamp: Type.Number() });
export type ReplayEvent = Static<typeof ReplayEvent>;

/** The session info a replay opens with: the same fields, and the same verdict, as the sessions list. */
export const ReplayInit = Type.Object({
  userAgent: Nullable(Type.String()),
  remoteIpAddress: Nullable(Type.String()),
  /** What remoteIpAddress holds, as in the sessions list. Optional for older files and caches. */
  ipMode: Type.Optional(Type.String()),
  language: Nullable(Type.String()),
  timezone: Nullable(Type.String()),
  webdriver: Type.Boolean(),
  cookiesEnabled: Type.Boolean(),
  hasFocus: Type.Boolean(),
  fullScreenEnabled: Type.Boolean(),
  /** The server's verdict, the same as the sessions list's. */
  isBot: Type.Boolean(),
  botReason: Nullable(Type.String()),
  // The session's derived facts, as the sessions list has them: they travel with a saved replay
  // (optional: a replay saved, or a recording file made, before they were sent has none).
  durationMs: Type.Optional(Type.Number()),
  activeMs: Type.Optional(Type.Number()),
  pageCount: Type.Optional(Type.Number()),
  clickCount: Type.Optional(Type.Number()),
  rageClickCount: Type.Optional(Type.Number()),
  deadClickCount: Type.Optional(Type.Number()),
  quickBackCount: Type.Optional(Type.Number()),
  excessiveScrollCount: Type.Optional(Type.Number()),
  errorCount: Type.Optional(Type.Number()),
  failedRequestCount: Type.Optional(Type.Number()),
  /** When its last batch was stored and whether it was closed at a cap, as in the sessions list:
   * a saved copy tells "still recording" by them (common/recording-now.ts). Absent in older copies. */
  lastActivityAt: Type.Optional(Type.Number()),
  closed: Type.Optional(Type.Boolean()),
});
export type ReplayInit = Static<typeof ReplayInit>;

/** GET /api/v1/replay/retrieve/{campaignId}/{sessionId}, streamed as JSON text. */
export const ReplayResponse = Type.Object({
  init: ReplayInit,
  events: Type.Array(ReplayEvent),
  /** false while the session may still be recording (activity within the tracker's idle time). */
  complete: Type.Boolean(),
  /** true while the visitor is recording now (a batch within LIVE_WINDOW_MS); absent in older copies. */
  live: Type.Optional(Type.Boolean()),
  /** The batches whose events it carries, as the live replay's `after` (common/held-batches.ts); absent in older copies. */
  batches: Type.Optional(Type.String()),
});
export type ReplayResponse = Static<typeof ReplayResponse>;

/** GET /api/v1/replay/retrieve/demo: the landing page's recorded demo. */
export const DemoResponse = Type.Object({ data: Type.Array(ReplayEvent) });
export type DemoResponse = Static<typeof DemoResponse>;
