import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { SessionKeys } from './auth/tokens.js';
import type { LiveHub } from './live/hub.js';
import type { KeptCampaigns } from './campaigns/kept-campaigns.js';
import type { Recordings } from './recordings/index.js';
import type { AfterStored } from './recordings/after-stored.js';
import type { HeavyReads } from './http/heavy-reads.js';

/** What every area of the server is built from; made once in buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  keys: SessionKeys;
  /** The secret people's ids are hashed under where a trace of them is kept (erasure records). */
  peopleKey: string;
  /** Live sessions: who follows what, and news of changed sessions from every node. */
  live: LiveHub;
  /** The campaigns ingest read, kept a while (this app's own: never shared with another app in the process). */
  keptCampaigns: KeptCampaigns;
  /** The one writer of sessions, their chunks and campaigns' admitted-session counts. */
  recordings: Recordings;
  /** What follows a committed batch (live, errors, heat, funnel visits), and what a read settles first (flushFor). */
  afterStored: AfterStored;
  /** Heavy owner reads: a per-account and node-wide gate, a time budget, queries off the event loop. */
  heavyReads: HeavyReads;
}
