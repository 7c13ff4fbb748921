import type { Db } from '../db/index.js';
import { HttpError } from '../http/errors.js';
import { RecentlyUsed } from '../recently-used.js';
import type { StorageUse } from '../../common/api/sessions.js';

/** Ingest's answer to a new session of a campaign at its quota (existing sessions go on). */
export const QUOTA_REACHED = 'Storage quota reached for this campaign';

/** How long a campaign's sum is kept: a new session reads at most one SUM per campaign this often. */
const KEEP_MS = 5_000;
const CAMPAIGNS_KEPT = 10_000;

/**
 * STORAGE_QUOTA_MB: the event bytes a campaign's sessions may hold (the byte_count each session
 * counts against SESSION_MAX_MB). Reached, no new session starts; sessions already started may
 * finish within their own caps, so a campaign can end a little past its quota.
 */
export class StorageQuota {
  readonly #kept = new RecentlyUsed<string, { at: number; used: Promise<number> }>(CAMPAIGNS_KEPT);

  constructor(
    private readonly db: Db,
    private readonly quotaBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The campaign's use against its quota, at most KEEP_MS old; null when there is no quota. */
  async use(campaignId: string): Promise<StorageUse | null> {
    if (this.quotaBytes === 0) return null;
    const usedBytes = await this.#used(campaignId);
    return { usedBytes, quotaBytes: this.quotaBytes, full: usedBytes >= this.quotaBytes };
  }

  /** Refuses a new session (403) when the campaign's sessions hold its quota. */
  async admitNewSession(campaignId: string): Promise<void> {
    if ((await this.use(campaignId))?.full) throw new HttpError(403, QUOTA_REACHED);
  }

  /** One SUM over the campaign's sessions (their index by campaign), shared by the callers of KEEP_MS. */
  #used(campaignId: string): Promise<number> {
    const kept = this.#kept.get(campaignId);
    if (kept && this.now() - kept.at < KEEP_MS) return kept.used;
    const used = this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('byte_count'), eb.lit(0)).as('bytes'))
      .where('campaign_id', '=', campaignId)
      .executeTakeFirst()
      .then((row) => Number(row?.bytes ?? 0));
    this.#kept.set(campaignId, { at: this.now(), used });
    used.catch(() => this.#kept.delete(campaignId));
    return used;
  }
}
