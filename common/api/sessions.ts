import { Type, type Static } from 'typebox';
import { Nullable } from './shared.js';

/** Session info the tracker reports with the first batch (the visit's details, screen, referrer, URL). */
export const SessionInfo = Type.Object({
  userAgent: Type.String(),
  language: Type.String(),
  timezone: Type.String(),
  hardwareConcurrency: Type.Number(),
  webdriver: Type.Boolean(),
  cookiesEnabled: Type.Boolean(),
  hasFocus: Type.Boolean(),
  fullScreenEnabled: Type.Boolean(),
  screenWidth: Type.Optional(Type.Number()),
  screenHeight: Type.Optional(Type.Number()),
  referrer: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
});
export type SessionInfo = Static<typeof SessionInfo>;

export const Session = Type.Object({
  sessionId: Type.String(),
  remoteIpAddress: Nullable(Type.String()),
  language: Nullable(Type.String()),
  timezone: Nullable(Type.String()),
  hardwareConcurrency: Nullable(Type.Number()),
  /** The webdriver flag as the browser reported it; the verdict is isBot. */
  webdriver: Type.Boolean(),
  cookiesEnabled: Type.Boolean(),
  hasFocus: Type.Boolean(),
  fullScreenEnabled: Type.Boolean(),
  userAgent: Nullable(Type.String()),
  /** Computed on the server from an offline IP database. */
  country: Nullable(Type.String()),
  /** The server's verdict: webdriver, crawler user agent, or no human input. */
  isBot: Type.Boolean(),
  botReason: Nullable(Type.String()),
  browser: Nullable(Type.String()),
  os: Nullable(Type.String()),
  device: Nullable(Type.String()),
  screenWidth: Nullable(Type.Number()),
  screenHeight: Nullable(Type.Number()),
  referrer: Nullable(Type.String()),
  entryUrl: Nullable(Type.String()),
  startedAt: Type.Number(),
  lastActivityAt: Type.Number(),
  durationMs: Type.Number(),
  pageCount: Type.Number(),
  eventCount: Type.Number(),
  byteCount: Type.Number(),
});
export type Session = Static<typeof Session>;

export const SessionCounts = Type.Object({ total: Type.Number(), human: Type.Number(), bot: Type.Number() });
export type SessionCounts = Static<typeof SessionCounts>;

export const MAX_PAGE = 200;

export const SessionsParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });

/** GET /api/v1/streaming/sessions/{campaignId}/?cursor&limit&search&type */
export const SessionsQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
    search: Type.Optional(Type.String({ maxLength: 100 })),
    type: Type.Optional(Type.Union([Type.Literal('human'), Type.Literal('bot')])),
  },
  { additionalProperties: false },
);
export type SessionsQuery = Static<typeof SessionsQuery>;

/** One page of a campaign's sessions, newest first. */
export const SessionsResponse = Type.Object({
  sessions: Type.Array(Session),
  /** Cursor for the next page, or null on the last page. */
  nextCursor: Nullable(Type.String()),
  /** Counts over the whole campaign (not just this page). */
  counts: SessionCounts,
});
export type SessionsResponse = Static<typeof SessionsResponse>;
