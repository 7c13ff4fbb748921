import { sql } from 'kysely';
import { isPostgres, type Db } from '../db/index.js';
import type { Trx } from '../db/executor.js';
import { isTransientDatabaseFault } from '../http/errors.js';

// The batching of both databases' transactions (SQLite's every batch, PostgreSQL's leftovers):
// what arrives in one turn of the event loop is grouped (TurnGroups) and committed together
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
