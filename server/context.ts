import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { SessionKeys } from './auth/tokens.js';
import type { LiveHub } from './live/hub.js';
import type { KeptCampaigns } from './campaigns/kept-campaigns.js';
import type { Recordings } from './recordings/index.js';
import type { AfterStored } from './recordings/after-stored.js';
import type { HeavyReads } from './http/heavy-reads.js';
import type { HeavyGate } from './http/heavy-gate.js';
import type { ApiRoute } from './http/input-rules.js';
import type { DiskGuard } from './storage/disk-guard.js';
import type { ByteCounter } from './cluster/byte-counter.js';
import type { StorageQuota } from './campaigns/storage-quota.js';
import type { StreamRegistry } from './live/streams.js';
import type { UserByteBudget } from './live/budget.js';
import type { WebhookWorker } from './webhooks/worker.js';

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
  /** Heavy replays' slots: the owners' (each a share), and public share links' own, so a posted link never takes the owners'. */
  replayGates: { owners: HeavyGate; shared: HeavyGate };
  /** Refuses writes while DATA_DIR's disk is nearly full (ingest, health). */
  diskGuard: DiskGuard;
  /** Where ingest's byte budgets count (the rate limits' storage). */
  byteCounter: ByteCounter;
  /** Each account's stored bytes against its quota. */
  storageQuota: StorageQuota;
  /** The node's open live streams (tests read the count). */
  liveStreams: StreamRegistry;
  /** Event bytes each user's live streams hold. */
  liveBudget: UserByteBudget;
  /** Webhooks' deliveries: queued events sent, signed, retried (docs/webhooks.md); tests drive its scan and sends. */
  webhooks: WebhookWorker;
  /** Every route under /api/v1, as registered (tests walk them). */
  apiRoutes: readonly ApiRoute[];
}
