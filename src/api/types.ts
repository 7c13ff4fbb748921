// API payload types of spec §3, defined once and imported by the PWA, the server and the tracker.

export interface User {
  id: string;
  name: string;
  email: string | null;
  picture: string | null;
}

export interface Campaign {
  id: string;
  name: string;
  /** Comma-separated host names. */
  domains: string;
  /** Session cap; 0 means no limit. */
  limit: number;
  /** Epoch milliseconds. */
  start_date_time: number;
  end_date_time: number;
}

export interface CampaignListResponse {
  data: Campaign[];
}

export interface CreateCampaignPayload {
  name: string;
  domains: string;
  limit: number;
  start_date_time: number;
  end_date_time: number;
}

/** Session info the tracker reports with the first batch (spec §3 plus screen, referrer, URL). */
export interface SessionInfo {
  userAgent: string;
  language: string;
  timezone: string;
  hardwareConcurrency: number;
  webdriver: boolean;
  cookiesEnabled: boolean;
  hasFocus: boolean;
  fullScreenEnabled: boolean;
  screenWidth?: number;
  screenHeight?: number;
  referrer?: string;
  url?: string;
}

export interface Session {
  sessionId: string;
  remoteIpAddress: string | null;
  language: string | null;
  timezone: string | null;
  hardwareConcurrency: number | null;
  /** true means bot (spec §4). */
  webdriver: boolean;
  cookiesEnabled: boolean;
  hasFocus: boolean;
  fullScreenEnabled: boolean;
  userAgent: string | null;
  /** Computed on the server from an offline IP database. */
  country: string | null;
  /** The server's verdict: webdriver, crawler user agent, or no human input. */
  isBot: boolean;
  botReason: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  screenWidth: number | null;
  screenHeight: number | null;
  referrer: string | null;
  entryUrl: string | null;
  startedAt: number;
  lastActivityAt: number;
  durationMs: number;
  pageCount: number;
  eventCount: number;
  byteCount: number;
}

export interface SessionCounts {
  total: number;
  human: number;
  bot: number;
}

/** GET /api/v1/streaming/sessions/{campaignId}/ — paged on the server. */
export interface SessionsResponse {
  sessions: Session[];
  /** Cursor for the next page, or null on the last page. */
  nextCursor: string | null;
  /** Counts over the whole campaign (not just this page). */
  counts: SessionCounts;
}

export interface ReplayEvent {
  type: number;
  data: unknown;
  timestamp: number;
}

export interface ReplayInit {
  userAgent: string | null;
  remoteIpAddress: string | null;
  language: string | null;
  timezone: string | null;
  webdriver: boolean;
  cookiesEnabled: boolean;
  hasFocus: boolean;
  fullScreenEnabled: boolean;
}

export interface ReplayResponse {
  init: ReplayInit;
  events: ReplayEvent[];
  /** false while the session may still be recording (last activity within 30 minutes). */
  complete: boolean;
}

export interface ValidateTokenResponse {
  valid: boolean;
  error?: string;
}

/** POST /api/v1/auth/google/callback: the signed-in user, and the app path sign-in started from. */
export interface SignInResponse {
  user: User;
  returnTo: string;
}

export interface ApiError {
  error: string;
}
