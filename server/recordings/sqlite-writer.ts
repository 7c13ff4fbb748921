import type { Db } from '../db/index.js';
import type { Destination, RecordedBatch, SessionCaps, SessionState, WriteOutcome } from './batch.js';
import { GroupedTransactions, LastSeenRows } from './transaction-writer.js';

/**
 * SQLite: this process is the database's only writer, so the row it last wrote is the row. The
 * batches that arrive together share one transaction (group commit: one fsync for the group),
 * each in its own savepoint, so a refused batch is undone alone. Recordings (index.ts) by its
 * shape, as PostgresWriter: the writers import nothing of index.ts, which picks them.
 */
export class SqliteWriter {
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

  write(batch: RecordedBatch, { campaign, lastSeen }: Destination): Promise<WriteOutcome> {
    return this.#transactions.write(campaign, batch, lastSeen);
  }
}
