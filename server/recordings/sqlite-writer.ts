import type { Db } from '../db/index.js';
import type { PackedBatch } from '../ingest/pack-batch.js';
import type { SessionState } from '../sessions/repository.js';
import type { SessionCaps } from './rules.js';
import { GroupedTransactions } from './transaction-writer.js';
import { LastSeenRows, type Destination, type Recordings, type WriteOutcome } from './index.js';

/**
 * SQLite: this process is the database's only writer, so the row it last wrote is the row. The
 * batches that arrive together share one transaction (group commit: one fsync for the group),
 * each in its own savepoint, so a refused batch is undone alone.
 */
export class SqliteWriter implements Recordings {
  readonly #rows = new LastSeenRows();
  readonly #transactions: GroupedTransactions;

  constructor(
    private readonly db: Db,
    caps: SessionCaps,
  ) {
    this.#transactions = new GroupedTransactions(db, 'sqlite', caps, this.#rows, { concurrency: 1, maxGroup: 64 });
  }

  lastSeen(campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    return this.#rows.get(this.db, campaignId, sessionId);
  }

  write(batch: PackedBatch, { campaign, ip, lastSeen }: Destination): Promise<WriteOutcome> {
    return this.#transactions.write(campaign, batch, ip, lastSeen);
  }
}
