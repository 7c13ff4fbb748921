import type { Generated, Selectable } from 'kysely';
import type { ErasuresTable, SessionCountsTable, SessionEventsTable, SessionTermsTable, SessionTraitsTable } from './schema-people.js';
import type {
  FunnelDaysTable,
  FunnelsTable,
  HeatmapTables,
  InsightsDaysTable,
  SessionErrorsTable,
  SessionPagesTable,
  SessionVisitsTable,
} from './schema-insights.js';
import type { TeamTables } from './schema-teams.js';
import type { WebhookTables } from './schema-webhooks.js';

/**
 * The database schema as Kysely sees it. Times are epoch milliseconds; booleans are stored
 * as 0/1 integers so SQLite and PostgreSQL behave identically.
 */
export interface UsersTable {
  id: string;
  /** issuer + "|" + subject of the identity provider: one account per identity. */
  subject: string;
  email: string | null;
  name: string;
  picture: string | null;
  created_at: number;
  updated_at: number;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  /** Every rotation keeps the family; reuse of a rotated token revokes the whole family. */
  family_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

/** A campaign's row as read (campaigns/repository.ts has its queries). */
export type CampaignRow = Selectable<CampaignsTable>;

export interface CampaignsTable {
  id: string;
  /** The account that made the campaign; who may see and change it is its workspace's (migration 0034). */
  owner_id: string;
  /** Inserted without one (seeders), a trigger puts the campaign in its maker's personal workspace. */
  workspace_id: Generated<string>;
  name: string;
  domains: string;
  session_limit: number;
  start_date_time: number;
  end_date_time: number;
  created_at: number;
  /** Sessions admitted so far; incremented atomically against session_limit at ingest. */
  session_count: Generated<number>;
  /** 1: the tracker captures console.error/warn; 0: it does not, and ingest drops any it gets. */
  capture_console: Generated<number>;
  /** Days recordings are kept before the sweeper deletes them; 0 keeps them forever. */
  retention_days: Generated<number>;
  /** How much of a visitor's address is stored: 'full', 'truncated' or 'none'. */
  ip_mode: Generated<string>;
  /** 1: page addresses keep their query string (masked_params masked); 0: path only. */
  keep_query: Generated<number>;
  /** Query parameters whose values are masked when keep_query is 1: lower-case names, one a line. */
  masked_params: Generated<string>;
  /** Per cent of sessions recorded (1–100), decided by the session id (common/recording-rules.ts). */
  sample_rate: Generated<number>;
  /** Ended sessions shorter than this are deleted by the sweep (0: all kept). */
  min_duration_ms: Generated<number>;
  /** Path patterns, one a line: pages recorded (none: all) and pages never recorded. */
  url_include: Generated<string>;
  url_exclude: Generated<string>;
  /** CSS selector of elements never recorded, besides the ones always blocked ('' : none). */
  block_selector: Generated<string>;
  /** 'strict', 'balanced' or 'relaxed'. */
  privacy: Generated<string>;
  /** 'none' or 'required'. */
  consent: Generated<string>;
  /** Seconds recorded in memory before consent and sent once it is given (0: none). */
  consent_buffer_seconds: Generated<number>;
}

export interface SessionsTable {
  campaign_id: string;
  id: string;
  remote_ip: string | null;
  country: string | null;
  language: string | null;
  timezone: string | null;
  hardware_concurrency: number | null;
  webdriver: number;
  cookies_enabled: number;
  has_focus: number;
  full_screen_enabled: number;
  user_agent: string | null;
  screen_width: number | null;
  screen_height: number | null;
  referrer: string | null;
  entry_url: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  is_bot: number;
  bot_reason: string | null;
  has_human_input: number;
  started_at: number;
  last_activity_at: number;
  page_count: number;
  event_count: number;
  /** Event JSON stored for the session (64-bit on both databases). */
  byte_count: number;
  /** Batches stored; with the two counters above, what the per-session caps count. */
  batch_count: number;
  /** Set when the session reached a cap: no more batches are taken, and why. */
  closed_reason: string | null;
  /** Derived from the events as batches arrive (common/session-facts.ts). */
  duration_ms: number;
  active_ms: number;
  click_count: number;
  rage_click_count: number;
  dead_click_count: number;
  /** Frustration: pages left and loaded again within seconds, bursts of scrolling back and forth (0025). */
  quick_back_count: number;
  excessive_scroll_count: number;
  error_count: number;
  failed_request_count: number;
  /** Page paths in visit order, one a line (at most 50). */
  pages: string | null;
  exit_url: string | null;
  /** JSON: what the rules carry to the next batch (last input, the last second's clicks). */
  facts_carry: string | null;
  /** ISO 3166 code beside the English name in `country`. */
  country_code: string | null;
  /** Lower-case browser name without version ("chrome"), for the browser filter. */
  browser_name: string | null;
  /** The campaign's IP handling when the session was stored: what remote_ip holds. */
  ip_mode: string;
  /** The id the page gave with tapedeck.identify (the last one), and JSON objects of its traits, tags and events' counts (common/people.ts). */
  user_id: string | null;
  traits: string | null;
  tags: string | null;
  events: string | null;
  /** The entry page's utm_source, utm_medium and utm_campaign (migration 0029), as the tracker read them (at most 100 characters). */
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  /** What the list's search finds the session by (server/sessions/search-terms.ts): a JSON array of terms, mirrored into session_terms (migration 0031). */
  search_terms: string | null;
}

/** Append-only batches of rrweb events, gzip-compressed JSON arrays. */
export interface ChunksTable {
  campaign_id: string;
  session_id: string;
  seq: number;
  first_ts: number;
  last_ts: number;
  event_count: number;
  byte_size: number;
  data: Uint8Array;
  created_at: number;
  /** 1: the events are stored in timestamp order (every chunk written since migration 0003). */
  sorted: Generated<number>;
}

/** The built-in provider's accounts; email is stored lower-cased. */
export interface LocalAccountsTable {
  email: string;
  /** The OpenID subject the provider announces for this email (stable across renames). */
  subject: string;
  name: string;
  /** scrypt$N$r$p$salt$hash (base64url): never the password itself. */
  password_hash: string;
  /** 'signup' (the sign-in form) or 'command' (`npm run user`). */
  made_by: string;
  created_at: number;
  updated_at: number;
}

/** Secrets generated by the first server to need them, shared by every server on this database. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** The built-in sign-in provider's records (interactions, codes, grants, its sessions). */
export interface OidcModelsTable {
  /** oidc-provider's model name: Interaction, Session, Grant, AuthorizationCode, … */
  model: string;
  id: string;
  /** The record as JSON. */
  payload: string;
  uid: string | null;
  grant_id: string | null;
  user_code: string | null;
  /** Null: never expires. */
  expires_at: number | null;
  consumed_at: number | null;
}

/** Rate-limit counters shared by the servers on one PostgreSQL: hits in the window ending at reset_at. */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  reset_at: number;
}

export interface Database extends HeatmapTables, TeamTables, WebhookTables {
  users: UsersTable;
  local_accounts: LocalAccountsTable;
  refresh_tokens: RefreshTokensTable;
  campaigns: CampaignsTable;
  sessions: SessionsTable;
  chunks: ChunksTable;
  server_secrets: ServerSecretsTable;
  oidc_models: OidcModelsTable;
  rate_limit_hits: RateLimitHitsTable;
  share_links: ShareLinksTable;
  sign_ins: SignInsTable;
  session_stars: SessionStarsTable;
  segments: SegmentsTable;
  notes: NotesTable;
  session_events: SessionEventsTable;
  session_terms: SessionTermsTable;
  session_traits: SessionTraitsTable;
  session_counts: SessionCountsTable;
  erasures: ErasuresTable;
  insights_days: InsightsDaysTable;
  funnels: FunnelsTable;
  funnel_days: FunnelDaysTable;
  session_pages: SessionPagesTable;
  session_visits: SessionVisitsTable;
  session_errors: SessionErrorsTable;
}

/** A read-only link to one replay; the token itself is never stored, only its SHA-256. */
export interface ShareLinksTable {
  token_hash: string;
  campaign_id: string;
  session_id: string;
  /** 1: the link shows the session's details (IP, browser, pages…); 0: the player only. */
  include_details: Generated<number>;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** One sign-in on one device: a refresh-token family, as the account page lists it. */
export interface SignInsTable {
  family_id: string;
  user_id: string;
  /** The browser's User-Agent at sign-in, at most 512 characters. */
  user_agent: string | null;
  created_at: number;
  /** The last refresh of the family (an access token lives 15 minutes at most past it). */
  last_used_at: number;
  /** When its newest refresh token expires; housekeeping deletes the row after. */
  expires_at: number;
}

/** A starred session: kept past its campaign's retention. Goes with its session. */
export interface SessionStarsTable {
  campaign_id: string;
  session_id: string;
  starred_at: number;
}

/** A campaign's saved filters of its sessions list, under a name. */
export interface SegmentsTable {
  id: string;
  campaign_id: string;
  name: string;
  /** JSON: the sessions list's query parameters (common/api/segments.ts). */
  filters: string;
  created_at: number;
  updated_at: number;
}

/** A note at a moment of a replay. Goes with its session. */
export interface NotesTable {
  id: string;
  campaign_id: string;
  session_id: string;
  /** The user who wrote it: only they may change or delete it. */
  author_id: string;
  text: string;
  /** The moment it is about (epoch ms, the recording's clock). */
  timestamp: number;
  created_at: number;
  updated_at: number;
}
