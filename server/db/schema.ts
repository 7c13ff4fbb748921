import type { Generated } from 'kysely';

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

export interface CampaignsTable {
  id: string;
  owner_id: string;
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

export interface Database {
  users: UsersTable;
  local_accounts: LocalAccountsTable;
  refresh_tokens: RefreshTokensTable;
  campaigns: CampaignsTable;
  sessions: SessionsTable;
  chunks: ChunksTable;
}
