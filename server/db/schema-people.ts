// The tables beside sessions that people's facts and the list's counts keep (server/db/schema.ts names them all).

/** A session's event names with their counts, kept from sessions.events by triggers (migration 0019). */
/** One search term of a session (migration 0031), kept by the database from sessions.search_terms. */
export interface SessionTermsTable {
  campaign_id: string;
  session_id: string;
  term: string;
  /** The session's start (migration 0032): a prefix's sessions newest first from the index alone. */
  started_at: number;
}

/** An identified session's trait (migration 0033), kept by the database from sessions.traits and user_id: the value as text, ASCII lower-cased. */
export interface SessionTraitsTable {
  campaign_id: string;
  session_id: string;
  user_id: string;
  key: string;
  value: string;
}

export interface SessionEventsTable {
  campaign_id: string;
  session_id: string;
  name: string;
  count: number;
  /** The session's start (migration 0027), for the list's newest page by a common event. */
  started_at: number | null;
}

/** A campaign's sessions and bots, kept by triggers on sessions (migration 0026); no row is none. */
export interface SessionCountsTable {
  campaign_id: string;
  sessions: number | string;
  bots: number | string;
}

/**
 * Who erased a person's sessions, when, and how many: the person only as an HMAC of their id
 * under the server's `people` secret (migration 0030; null for records made before it).
 */
export interface ErasuresTable {
  id: string;
  campaign_id: string;
  erased_by: string;
  subject_hmac: string | null;
  session_count: number;
  erased_at: number;
}
