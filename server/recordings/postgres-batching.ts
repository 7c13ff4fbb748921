import type { Db } from '../db/index.js';
import type { CampaignRow } from '../db/schema.js';
import { STATE_COLUMNS, type SessionRow } from '../sessions/rows.js';
import type { FactMarks } from '../../common/session-facts.js';
import type { CountedSession, Destination, RecordedBatch, SessionCaps, SessionState, WriteOutcome } from './batch.js';
import {
  COUNTERS,
  NOTHING_COUNTED,
  capReached,
  capValues,
  firstBatchRow,
  foldedFacts,
  grownName,
  judgedAlike,
  judgedValues,
  type FoldedFacts,
} from './rules.js';
import { countStatement, startStatement } from './statements.js';
import { GroupedTransactions, LastSeenRows, TurnGroups } from './transaction-writer.js';

// PostgreSQL's batching, beside the spine: the batches that arrive together share one statement
// (StatementGroups, the two statements below), and PostgresWriter hands what they leave to the
// transaction writer.

interface Queued<Item, Answer> {
  item: Item;
  resolve: (answer: Answer) => void;
}

/**
 * Where a shared statement's failure is told (the server's log): nothing is lost, but a failure
 * that recurs costs every batch a second write and must be seen.
 */
export interface WriterLog {
  warn(details: { err: unknown; batches?: number; campaignId?: string }, message: string): void;
}

interface GroupBounds {
  concurrency: number;
  maxGroup: number;
  maxBytes: number;
}

/**
 * Runs the items queued in one turn of the event loop as one statement (PostgreSQL's writer): a statement costs PostgreSQL about as much for one row as for a few, so batches
 * that arrive together share it. One item a key a statement (a session's row is written once
 * by it); a second item of a key waits for the next. `run` answers each item by its key.
 */
export class StatementGroups<Item extends { key: string; bytes: number }, Answer> {
  readonly #groups: TurnGroups<Queued<Item, Answer>>;

  constructor(
    private readonly run: (group: Item[]) => Promise<Map<string, Answer>>,
    /** The answer of an item the statement did not answer, or of every item of a statement that failed (it wrote nothing). */
    private readonly unanswered: Answer,
    /** Told of a statement that failed: its items are answered as unanswered all the same. */
    private readonly log: WriterLog,
    // One statement at a time: the items that wait meanwhile make the next statement bigger,
    // which costs PostgreSQL less an item than two smaller statements at once.
    // At most 64 items or 4 MB of them (a statement's parameters are held in memory, as text).
    private readonly options: GroupBounds = { concurrency: 1, maxGroup: 64, maxBytes: 4 * 1024 * 1024 },
  ) {
    this.#groups = new TurnGroups(
      options.concurrency,
      (queue) => this.#take(queue),
      (group) => this.#answer(group),
    );
  }

  submit(item: Item): Promise<Answer> {
    return new Promise((resolve) => this.#groups.push({ item, resolve }));
  }

  /** Queued items within the group's bounds (the first always), one a key, in key order (rows are locked in one order). */
  #take(queue: Queued<Item, Answer>[]): Queued<Item, Answer>[] {
    const taken = new Map<string, Queued<Item, Answer>>();
    const left: Queued<Item, Answer>[] = [];
    let bytes = 0;
    for (const entry of queue) {
      const fits = taken.size === 0 || (taken.size < this.options.maxGroup && bytes + entry.item.bytes <= this.options.maxBytes);
      if (fits && !taken.has(entry.item.key)) {
        taken.set(entry.item.key, entry);
        bytes += entry.item.bytes;
      } else left.push(entry);
    }
    queue.splice(0, queue.length, ...left);
    return [...taken.values()].sort((a, b) => (a.item.key < b.item.key ? -1 : a.item.key > b.item.key ? 1 : 0));
  }

  async #answer(group: Queued<Item, Answer>[]): Promise<void> {
    let answers: Map<string, Answer>;
    try {
      answers = await this.run(group.map((entry) => entry.item));
    } catch (error) {
      // A deadlock between nodes may happen now and then; anything that recurs is a fault to see.
      this.log.warn({ err: error, batches: group.length }, 'a shared ingest statement failed; its batches were written one by one');
      answers = new Map();
    }
    for (const { item, resolve } of group) resolve(answers.get(item.key) ?? this.unanswered);
  }
}

/**
 * PostgreSQL's two statements for the batches that arrive together, one row of `unnest`'s
 * arrays a batch: their text is written once (every value is an array parameter), so each
 * connection parses and plans them once. A statement costs about as much for one batch as for
 * a few. Per batch it is all or nothing; what it leaves goes through a transaction.
 */

/** A batch of a session the node has seen, with the row as it saw it and the facts the batch folds onto that row. */
export interface Counting {
  campaign: CampaignRow;
  batch: RecordedBatch;
  lastSeen: SessionState;
  facts: FoldedFacts;
  now: number;
}

/** A new session's first batch, with the row it starts (counted: rules.ts's firstBatchRow). */
export interface Starting {
  campaign: CampaignRow;
  batch: RecordedBatch;
  row: SessionRow;
}

export type CountedRow = CountedSession & { applied: boolean; campaign_id: string; id: string };

export function countValues(group: Counting[], caps: SessionCaps): Record<string, unknown> {
  const column = <T>(pick: (item: Counting) => T) => group.map(pick);
  const grows = Object.fromEntries(COUNTERS.map(({ column: name, grows: by }) => [grownName(name), column((i) => by(i.batch))]));
  return {
    ...grows,
    ...capValues(caps),
    ...judgedValues(column((i) => i.campaign)),
    campaign: column((i) => i.campaign.id),
    session: column((i) => i.batch.sessionId),
    seq: column((i) => i.batch.seq),
    seen_batch_count: column((i) => i.lastSeen.batch_count),
    seen_started_at: column((i) => i.lastSeen.started_at),
    now: column((i) => i.now),
    facts: column((i) => JSON.stringify(i.facts)),
    first_ts: column((i) => i.batch.firstTs),
    last_ts: column((i) => i.batch.lastTs),
    data: column((i) => i.batch.chunk),
  };
}

export function startValues(group: Starting[]): Record<string, unknown> {
  const column = <T>(pick: (item: Starting) => T) => group.map(pick);
  return {
    ...judgedValues(column((i) => i.campaign)),
    campaign: column((i) => i.campaign.id),
    row: column((i) => JSON.stringify(i.row)),
    seq: column((i) => i.batch.seq),
    first_ts: column((i) => i.batch.firstTs),
    last_ts: column((i) => i.batch.lastTs),
    data: column((i) => i.batch.chunk),
  };
}

type CountAnswer = { applied: true; row: CountedRow } | { applied: false; current: SessionState | undefined };

const keyOf = (campaignId: string, sessionId: string) => `${campaignId}/${sessionId}`;
const stateOf = (row: SessionState) => Object.fromEntries(STATE_COLUMNS.map((column) => [column, row[column]])) as SessionState;
/** PostgreSQL's unique_violation: a session another request started while the statement ran. */
const isStartedElsewhere = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * PostgreSQL: other nodes write too, so the row this node last saw and the campaign it judged a
 * batch by are only what it expects; the shared statements (above) check both
 * under the rows' locks, with no transaction around them. A batch they leave (another node wrote
 * the session, a cap, a retried batch, a campaign about to be full) is written in a transaction
 * of its own against the rows read afresh, a few such transactions at once.
 */
/** Recordings (index.ts) by its shape: the writers import nothing of index.ts, which picks them. */
export class PostgresWriter {
  readonly #rows = new LastSeenRows();
  readonly #transactions: GroupedTransactions;
  readonly #counting: StatementGroups<Counting & { key: string; bytes: number }, CountAnswer>;
  readonly #starting: StatementGroups<Starting & { key: string; bytes: number }, SessionState | undefined>;

  constructor(
    private readonly db: Db,
    private readonly caps: SessionCaps,
    log: WriterLog,
  ) {
    // Taken once: a batch then reads nothing of statements.ts (which is off the write spine).
    const [count, start] = [countStatement, startStatement];
    // A few small groups at once, each on its own pooled connection.
    this.#transactions = new GroupedTransactions(db, 'postgres', caps, this.#rows, { concurrency: 4, maxGroup: 4 });
    this.#counting = new StatementGroups(
      async (group) => {
        const { rows } = await count.run<CountedRow>(db, countValues(group, caps));
        return new Map(
          rows.map((row): [string, CountAnswer] => [keyOf(row.campaign_id, row.id), row.applied ? { applied: true, row } : { applied: false, current: row }]),
        );
      },
      { applied: false, current: undefined },
      log,
    );
    this.#starting = new StatementGroups(
      async (group) => {
        try {
          const [{ started }] = (await start.run<{ started: (SessionState & { campaign_id: string; id: string })[] }>(db, startValues(group))).rows;
          return new Map(started.map((row) => [keyOf(row.campaign_id, row.id), row]));
        } catch (error) {
          if (isStartedElsewhere(error)) return new Map();
          throw error;
        }
      },
      undefined,
      log,
    );
  }

  lastSeen(campaignId: string, sessionId: string): Promise<SessionState | undefined> {
    return this.#rows.get(this.db, campaignId, sessionId);
  }

  async write(batch: RecordedBatch, to: Destination): Promise<WriteOutcome> {
    const { campaign } = to;
    const item = { key: keyOf(campaign.id, batch.sessionId), bytes: batch.chunk.byteLength, campaign, batch };
    let lastSeen = to.lastSeen;
    // A second try with the row as the statement found it: another node wrote the session between.
    for (let tries = 0; tries < 2 && lastSeen && !lastSeen.closed_reason && !capReached(lastSeen, batch, this.caps); tries++) {
      const marks: FactMarks = [];
      const answer = await this.#counting.submit({ ...item, lastSeen, facts: foldedFacts(lastSeen, batch, marks), now: Date.now() });
      if (answer.applied) {
        this.#rows.set(campaign.id, batch.sessionId, stateOf(answer.row));
        await this.#transactions.writer.keepVerdict(this.db, campaign.id, batch.sessionId, answer.row);
        return { stored: true, admitted: false, marks };
      }
      lastSeen = answer.current;
    }
    if (!to.lastSeen && batch.info && !capReached(NOTHING_COUNTED, batch, this.caps)) {
      const marks: FactMarks = [];
      const started = await this.#starting.submit({ ...item, row: firstBatchRow(campaign, batch, batch.info, Date.now(), marks) });
      if (started) {
        this.#rows.set(campaign.id, batch.sessionId, stateOf(started));
        return { stored: true, admitted: true, marks };
      }
    }
    return this.#inTransaction(batch, to);
  }

  /** The batch written in a transaction (a few share one), against the campaign and the row read afresh (locked). */
  async #inTransaction(batch: RecordedBatch, { campaign, lastSeen }: Destination): Promise<WriteOutcome> {
    const current = await this.db.selectFrom('campaigns').selectAll().where('id', '=', campaign.id).executeTakeFirst();
    if (!current || !judgedAlike(campaign, current)) return { stored: false, admitted: false, campaignChanged: true };
    return this.#transactions.write(current, batch, undefined, lastSeen !== undefined);
  }
}
