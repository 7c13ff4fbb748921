import { RecentlyUsed } from '../recently-used.js';
import { isPostgres, type Db } from '../db/index.js';
import { findCampaign, type CampaignRow } from './repository.js';

/** How long ingest may keep a campaign it read: a backstop for writes made outside this process. */
const KEPT_MS = 10_000;
/** Campaigns kept at most: past it the one read longest ago goes. */
const KEPT_MAX = 10_000;

/** A campaign as ingest looked it up; `guess`: a kept copy another node may have changed since. */
export interface IngestCampaign {
  row: CampaignRow | undefined;
  guess: boolean;
}

/**
 * The campaigns ingest read, kept a while: one keep per app (buildApp makes it, on AppContext),
 * so two apps in one process (tests, the bench) never see each other's. Unknown ids are never
 * kept, and every write of a campaign (repository.ts, account deletion) forgets them all. On
 * SQLite this process is the database's only writer, so a kept row is the row. On PostgreSQL
 * other nodes write too: a kept row is a guess, which ingest only acts on where the database
 * checks it (ingest/known-sessions.ts) and reads afresh (`fresh`) before refusing or admitting.
 */
export class KeptCampaigns {
  readonly #kept = new RecentlyUsed<string, { row: CampaignRow; at: number }>(KEPT_MAX);
  /** Raised by every write: a read that began before one is not kept (its row may predate the write). */
  #writes = 0;

  constructor(private readonly db: Db) {}

  /** The campaign a batch is for, looked up on every batch. */
  async forIngest(id: string, options: { now?: number; fresh?: boolean } = {}): Promise<IngestCampaign> {
    const now = options.now ?? Date.now();
    const hit = options.fresh ? undefined : this.#kept.get(id);
    if (hit && now - hit.at < KEPT_MS) return { row: hit.row, guess: isPostgres(this.db) };
    const before = this.#writes;
    const row = await findCampaign(this.db, id);
    if (row && before === this.#writes) this.#kept.set(id, { row, at: now });
    else if (!row) this.#kept.delete(id);
    return { row, guess: false };
  }

  /** Called by every change or deletion of campaigns (ingest never keeps an unknown id, so a new one needs none). */
  forget(): void {
    this.#writes++;
    this.#kept.clear();
  }
}
