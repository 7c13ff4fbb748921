import type { Db } from '../db/index.js';
import type { PackedBatch } from '../ingest/pack-batch.js';
import type { SessionState } from '../sessions/repository.js';
import type { SessionCaps } from './rules.js';
import { GroupCommitter } from './group-commit.js';
import { DUPLICATE, TransactionWriter, isBatchRefusal, type Written } from './transaction-writer.js';
import { LastSeenRows, type Destination, type Recordings, type WriteOutcome } from './index.js';

/**
 * SQLite: this process is the database's only writer, so the row it last wrote is the row. The
 * batches that arrive together share one transaction (group commit: one fsync for the group),
 * each in its own savepoint, so a refused batch is undone alone.
 */
export class SqliteWriter implements Recordings {
  readonly #rows = new LastSeenRows();
  readonly #transaction: TransactionWriter;
  readonly #committer: GroupCommitter;

  constructor(
    private readonly db: Db,
    caps: SessionCaps,
  ) {
    this.#transaction = new TransactionWriter('sqlite', caps);
    this.#committer = new GroupCommitter(db, isBatchRefusal, { concurrency: 1, maxGroup: 64 });
  }

  lastSeen(campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    return this.#rows.get(this.db, campaignId, sessionId);
  }

  async write(batch: PackedBatch, { campaign, ip, lastSeen }: Destination): Promise<WriteOutcome> {
    let written: Written | undefined;
    try {
      // New sessions last in a group: their admission holds the campaign's row to the COMMIT.
      const order = `${lastSeen ? 0 : 1}/${campaign.id}/${batch.sessionId}`;
      written = await this.#committer.run((trx) => this.#transaction.write(trx, campaign, batch, ip, lastSeen, Date.now()), order);
      const { row: _row, ...outcome } = written;
      return outcome;
    } catch (error) {
      if (error === DUPLICATE) return { stored: false, admitted: false };
      throw error;
    } finally {
      // Not written (refused, retried, closed): read again next time.
      this.#rows.set(campaign.id, batch.sessionId, written?.row);
    }
  }
}
