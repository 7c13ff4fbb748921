import { sql } from 'kysely';
import type { Dialect, Executor, Trx } from '../db/executor.js';
import { HttpError, badRequest, isTransientDatabaseFault } from '../http/errors.js';
import type { CampaignRow } from '../db/schema.js';
import { STATE_COLUMNS, type SessionRow } from '../sessions/rows.js';
import type { CountedSession, RecordedBatch, SessionCaps, SessionState, WriteOutcome } from './batch.js';
import {
  COUNTERS,
  INFO_REQUIRED,
  LIMIT_REACHED,
  NOTHING_COUNTED,
  capReached,
  capValues,
  chunkRow,
  closingNote,
  firstBatchRow,
  foldedFacts,
  grownName,
  newSessionRow,
  verdictOf,
  verdictStale,
  type ChunkRow,
} from './rules.js';
import { transactionStatements, type TransactionStatements } from './statements.js';
import { isPostgres, type Db } from '../db/index.js';
import { RecentlyUsed } from '../recently-used.js';
import type { FactMarks } from '../../common/session-facts.js';

// The transaction writer: one batch inside a transaction (TransactionWriter), and how those
// transactions are batched on both databases (SQLite's every batch, PostgreSQL's leftovers): what
// arrives in one turn of the event loop is grouped (TurnGroups) and committed together
// (GroupCommitter). PostgreSQL's shared statements group their batches with TurnGroups too.

/**
 * Gathers what is queued during one turn of the event loop into groups and runs them, at most
 * `concurrency` at once; what arrives while they run makes the next group. The group commit
 * (below) and PostgreSQL's shared statements (postgres-batching.ts) group batches this way.
 */
export class TurnGroups<Entry> {
  readonly #queue: Entry[] = [];
  #running = 0;
  #scheduled = false;

  constructor(
    private readonly concurrency: number,
    /** Takes the next group out of the queue (it removes what it takes). */
    private readonly take: (queue: Entry[]) => Entry[],
    private readonly run: (group: Entry[]) => Promise<void>,
  ) {}

  push(entry: Entry): void {
    this.#queue.push(entry);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running >= this.concurrency || !this.#queue.length) return;
    // Waits for the rest of this turn of the event loop: batches read together go together.
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#running >= this.concurrency || !this.#queue.length) return;
      const group = this.take(this.#queue);
      this.#running++;
      void this.run(group).finally(() => {
        this.#running--;
        this.#schedule();
      });
      this.#schedule();
    });
  }
}

/** Tries of a batch alone: a deadlock cancels one transaction of two, and the next try finds the other done. */
const TRIES_ALONE = 3;

export interface GroupOptions {
  /** Groups committing at once: 1 for SQLite (one writer); PostgreSQL overlaps a few, on their own connections. */
  concurrency: number;
  /** The most batches one transaction holds; the rest wait for the next group. */
  maxGroup: number;
}

type Work<T> = (trx: Trx) => Promise<T>;

interface Job {
  work: Work<unknown>;
  order: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit: the stores of batches that arrive while a transaction is committing share the
 * next transaction, so one commit (one fsync on PostgreSQL) makes a group durable instead of a
 * batch. Each batch runs inside its own savepoint: a refused batch is rolled back alone and the
 * others are kept, whole. Every caller's promise settles only after the group's COMMIT, so no
 * reply acknowledges a batch that is not durable.
 *
 * An error that is the batch's own (`isRefusal`) is final; any other error (a deadlock between
 * two nodes' groups, a failed COMMIT) puts the batch through again alone, in a transaction of
 * its own, exactly as if there were no grouping; alone, a deadlock or serialization failure is
 * tried again (the caller answers 503 if it recurs, not 500).
 */
export class GroupCommitter {
  readonly #groups: TurnGroups<Job>;
  readonly #postgres: boolean;

  constructor(
    private readonly db: Db,
    private readonly isRefusal: (error: unknown) => boolean,
    options: GroupOptions = { concurrency: 1, maxGroup: 64 },
  ) {
    this.#postgres = isPostgres(db);
    const byOrder = (a: Job, b: Job) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);
    this.#groups = new TurnGroups(
      options.concurrency,
      (queue) => queue.splice(0, options.maxGroup).sort(byOrder),
      (group) => this.#commit(group),
    );
  }

  /**
   * Runs `work` in a transaction shared with other batches; resolves after the COMMIT. A group
   * runs its work by `order`, so overlapping groups take their row locks in the same order
   * (fewer deadlocks between them; a deadlock still costs only a retry).
   */
  run<T>(work: Work<T>, order = ''): Promise<T> {
    return new Promise<T>((resolve, reject) => this.#groups.push({ work, order, resolve: resolve as (value: unknown) => void, reject }));
  }

  async #commit(group: Job[]): Promise<void> {
    if (group.length === 1) return this.#alone(group[0]);
    let outcomes: Outcome[];
    try {
      outcomes = await this.db.transaction().execute(async (trx) => {
        const done: Outcome[] = [];
        for (const [i, job] of group.entries()) {
          // One round trip a batch on PostgreSQL: the previous savepoint released and the next
          // taken in one simple query (SQLite prepares one statement at a time). COMMIT releases the last.
          if (i === 0) await sql`savepoint batch`.execute(trx);
          else if (this.#postgres) await sql.raw('release savepoint batch; savepoint batch').execute(trx);
          else {
            await sql`release savepoint batch`.execute(trx);
            await sql`savepoint batch`.execute(trx);
          }
          try {
            done.push({ ok: true, value: await job.work(trx) });
          } catch (error) {
            await sql`rollback to savepoint batch`.execute(trx);
            done.push({ ok: false, error });
          }
        }
        return done;
      });
    } catch {
      // Nothing of the group was committed: each batch goes through again on its own.
      await Promise.all(group.map((job) => this.#alone(job)));
      return;
    }
    // After the COMMIT: only now do the batches' replies go out.
    await Promise.all(
      group.map((job, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) job.resolve(outcome.value);
        else if (this.isRefusal(outcome.error)) job.reject(outcome.error);
        else return this.#alone(job);
        return undefined;
      }),
    );
  }

  async #alone(job: Job): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return job.resolve(await this.db.transaction().execute(job.work));
      } catch (error) {
        if (tries === TRIES_ALONE || !isTransientDatabaseFault(error)) return job.reject(error);
      }
      // A few milliseconds, different for each batch: two that deadlocked do not meet again in step.
      await new Promise((resolve) => setTimeout(resolve, tries * (5 + Math.random() * 20)));
    }
  }
}

/** Thrown inside the transaction to undo the counters when the chunk was stored already. */
export const DUPLICATE = Symbol('duplicate batch');

/** Whether an error is the batch's own answer (a refusal or a retried batch), not the database's. */
export const isBatchRefusal = (error: unknown): boolean => error === DUPLICATE || error instanceof HttpError;

/** A write's outcome with the session's row as the batch left it (the next batch's last seen row). */
export type Written = WriteOutcome & { row?: SessionState };

const pick = <T extends object>(row: T, columns: readonly string[]) => Object.fromEntries(columns.map((column) => [column, row[column as keyof T]]));

/**
 * One batch written inside a transaction (SQLite's every batch, in a group commit; PostgreSQL's
 * batches its shared statements left): the session admitted if new, the batch counted within
 * the caps against the row as last seen, its chunk stored. Each statement's text is written once,
 * here; a batch only binds values. On PostgreSQL the row is read FOR UPDATE, so it stays as read.
 */
export class TransactionWriter {
  readonly #sql: TransactionStatements;
  readonly #caps: Record<string, number>;

  constructor(
    dialect: Dialect,
    private readonly caps: SessionCaps,
  ) {
    this.#caps = capValues(caps);
    this.#sql = transactionStatements(dialect);
  }

  /** Writes the batch in `trx`; throws DUPLICATE for a retried batch and an HttpError for a refused one (both undo the batch). */
  async write(trx: Executor, campaign: CampaignRow, batch: RecordedBatch, lastSeen: SessionState | undefined, now: number): Promise<Written> {
    let row = lastSeen;
    if (!row) {
      const started = batch.info ? await this.#start(trx, campaign, batch, now) : undefined;
      if (started) return started;
      row = await this.read(trx, campaign.id, batch.sessionId);
      if (!row) throw badRequest(INFO_REQUIRED);
    }
    // Against the last seen row, then (if it changed) the row read here: locked on PostgreSQL, and
    // SQLite has no other writer, so the second count finds the row as read.
    for (let tries = 0; tries < 3; tries++) {
      if (row.closed_reason) return { stored: false, admitted: false, closed: row.closed_reason };
      const reason = capReached(row, batch, this.caps);
      if (reason) return this.#closeAtCap(trx, campaign.id, batch, reason, now);
      const marks: FactMarks = [];
      const counted = await this.#countAsOf(trx, campaign.id, batch, row, now, marks);
      if (counted) {
        if (!(await this.insertChunk(trx, chunkRow(campaign.id, batch, now)))) throw DUPLICATE;
        await this.keepVerdict(trx, campaign.id, batch.sessionId, counted);
        return { stored: true, admitted: false, marks, row: pick(counted, STATE_COLUMNS) as SessionState };
      }
      const latest = await this.read(trx, campaign.id, batch.sessionId);
      // Erased since it was last seen: the batch starts the session again.
      if (!latest) return this.write(trx, campaign, batch, undefined, now);
      row = latest;
    }
    throw new Error('A session row changed under its lock');
  }

  read(db: Executor, campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    return this.#sql.read.run<SessionState>(db, { campaign: campaignId, session: sessionId }).then((result) => result.rows[0]);
  }

  async insertChunk(db: Executor, chunk: ChunkRow): Promise<boolean> {
    return (await this.#sql.insertChunk.run(db, chunk as unknown as Record<string, unknown>)).changed === 1;
  }

  /** Keeps the bot verdict current as the row's counters change, unless a later batch has counted the row since. */
  async keepVerdict(db: Executor, campaignId: string, sessionId: string, row: CountedSession): Promise<void> {
    if (!verdictStale(row)) return;
    await this.#sql.verdict.run(db, { ...verdictOf(row), campaign: campaignId, session: sessionId, batch_count: row.batch_count });
  }

  async #countAsOf(
    trx: Executor,
    campaignId: string,
    batch: RecordedBatch,
    row: SessionState,
    now: number,
    marks: FactMarks,
  ): Promise<CountedSession | undefined> {
    const grows = Object.fromEntries(COUNTERS.map(({ column, grows }) => [grownName(column), grows(batch)]));
    const values = {
      ...grows,
      ...this.#caps,
      ...foldedFacts(row, batch, marks),
      now,
      campaign: campaignId,
      session: batch.sessionId,
      seen_batch_count: row.batch_count,
      seen_started_at: row.started_at,
    };
    return (await this.#sql.count.run<CountedSession>(trx, values)).rows[0];
  }

  /**
   * Starts a new session with its first batch: its row goes in counted, then its chunk, and the
   * campaign admits it last. Refused, it throws: the transaction undoes the row. Undefined when
   * another request started the session first. On PostgreSQL the campaign's row is locked first:
   * a new row raises the campaign's count of sessions (session_counts, by a trigger), and the
   * shared start statement takes the campaign's row before that count; taken the other way
   * round, the two deadlocked.
   */
  async #start(trx: Executor, campaign: CampaignRow, batch: RecordedBatch, now: number): Promise<Written | undefined> {
    const info = batch.info!;
    const reason = capReached(NOTHING_COUNTED, batch, this.caps);
    const marks: FactMarks = [];
    const row: SessionRow = reason ? { ...newSessionRow(campaign, batch, info, now), closed_reason: reason } : firstBatchRow(campaign, batch, info, now, marks);
    await this.#sql.holdCampaign?.run(trx, { campaign: campaign.id });
    if ((await this.#sql.insertSession.run(trx, row)).changed !== 1) return undefined;
    if (!(await this.insertChunk(trx, reason ? closingNote(campaign.id, batch, reason, now) : chunkRow(campaign.id, batch, now)))) throw DUPLICATE;
    if ((await this.#sql.admit.run(trx, { campaign: campaign.id })).changed !== 1) throw new HttpError(403, LIMIT_REACHED);
    return reason ? { stored: false, admitted: true, closed: reason } : { stored: true, admitted: true, marks, row: pick(row, STATE_COLUMNS) as SessionState };
  }

  /** Closes a session at its cap: the reason on its row, and at the end of its replay as a note. */
  async #closeAtCap(trx: Executor, campaignId: string, batch: RecordedBatch, reason: string, now: number): Promise<Written> {
    await this.#sql.close.run(trx, { reason, campaign: campaignId, session: batch.sessionId });
    await this.insertChunk(trx, closingNote(campaignId, batch, reason, now));
    return { stored: false, admitted: false, closed: reason };
  }
}

/** The session's row as the writer sees it (SessionState), read now. */
export function sessionCounters(db: Executor, campaignId: string, sessionId: string): Promise<SessionState | undefined> {
  return db.selectFrom('sessions').select(STATE_COLUMNS).where('campaign_id', '=', campaignId).where('id', '=', sessionId).executeTakeFirst();
}

/** The sessions' rows as this node last wrote or read them, by campaign and session. */
export class LastSeenRows {
  /** Bounded: a row is a few hundred bytes; a forgotten session is only read again. */
  readonly #rows = new RecentlyUsed<string, SessionState>(5_000);

  /** The row as last written or read, else as read now. */
  async get(db: Db, campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    const remembered = this.#rows.get(`${campaignId}/${sessionId}`);
    if (remembered) return remembered;
    const row = await sessionCounters(db, campaignId, sessionId);
    this.set(campaignId, sessionId, row);
    return row;
  }

  set(campaignId: string, sessionId: string, row: SessionState | undefined): void {
    if (row) this.#rows.set(`${campaignId}/${sessionId}`, row);
    else this.#rows.delete(`${campaignId}/${sessionId}`);
  }
}

/**
 * The transaction writer in a group commit: the batches that arrive together share a transaction,
 * one savepoint each. Remembers the row each batch leaves as its session's last seen row (and
 * forgets it for a batch refused, retried or closed: it is read again next time).
 */
export class GroupedTransactions {
  readonly writer: TransactionWriter;
  readonly #committer: GroupCommitter;

  constructor(
    db: Db,
    dialect: Dialect,
    caps: SessionCaps,
    private readonly rows: LastSeenRows,
    options: GroupOptions,
  ) {
    this.writer = new TransactionWriter(dialect, caps);
    this.#committer = new GroupCommitter(db, isBatchRefusal, options);
  }

  /** `seenBefore`: the session was seen before (its batches go first; new sessions' admissions hold the campaign's row to the COMMIT). */
  async write(campaign: CampaignRow, batch: RecordedBatch, lastSeen: SessionState | undefined, seenBefore = lastSeen !== undefined): Promise<WriteOutcome> {
    let written: Written | undefined;
    try {
      const order = `${seenBefore ? 0 : 1}/${campaign.id}/${batch.sessionId}`;
      written = await this.#committer.run((trx) => this.writer.write(trx, campaign, batch, lastSeen, Date.now()), order);
      const { row: _row, ...outcome } = written;
      return outcome;
    } catch (error) {
      if (error === DUPLICATE) return { stored: false, admitted: false };
      throw error;
    } finally {
      this.rows.set(campaign.id, batch.sessionId, written?.row);
    }
  }
}
