import type { Db } from '../db/index.js';
import type { CampaignRow } from '../db/schema.js';
import { STATE_COLUMNS, VERDICT_COLUMNS, type SessionRow } from '../sessions/rows.js';
import { durationSql } from '../sessions/duration.js';
import type { FactMarks } from '../../common/session-facts.js';
import {
  CHUNK_COLUMNS,
  COUNTERS,
  FACT_VALUE_COLUMNS,
  JUDGED_NAMES,
  NOTHING_COUNTED,
  Statement,
  admissionSql,
  campaignUnchanged,
  capReached,
  capValues,
  firstBatchRow,
  foldedFacts,
  grownName,
  judgedAlike,
  judgedArrays,
  judgedValues,
  limitName,
  raiseSql,
  withinCapsSql,
  type CountedSession,
  type Destination,
  type FoldedFacts,
  type RecordedBatch,
  type SessionCaps,
  type SessionState,
  type WriteOutcome,
} from './rules.js';
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

const chunkColumns = CHUNK_COLUMNS.join(', ');
const answer = (alias: string) => [...STATE_COLUMNS, ...VERDICT_COLUMNS].map((column) => `${alias}.${column}`).join(', ');

/**
 * Counts and stores batches of sessions as last seen. The UPDATE counts only a row still as
 * seen, with no chunk of that seq stored, within the caps and under unchanged campaign rules;
 * the INSERT stores the chunks of the rows counted. Any writer of a chunk counts its row first,
 * so a chunk stored since this statement's snapshot changed `batch_count`, which the UPDATE
 * sees once it holds the row's lock. The rows not counted are answered as they are.
 */
export const countStatement = new Statement<string>('postgres', (p) => {
  const grows = COUNTERS.map(({ column, type }) => `${p(grownName(column))}::${type}[]`).join(', ');
  const by = (column: string) => `v.${grownName(column)}`;
  return `with v as materialized (
  select u.*, json_populate_record(null::sessions, u.facts) as f, ${campaignUnchanged('u')} as campaign_ok
  from unnest(${p('campaign')}::text[], ${p('session')}::text[], ${p('seq')}::int[], ${p('seen_batch_count')}::int[], ${p('seen_started_at')}::bigint[],
    ${p('now')}::bigint[], ${grows}, ${p('facts')}::json[], ${p('first_ts')}::bigint[], ${p('last_ts')}::bigint[], ${p('data')}::bytea[], ${judgedArrays(p)})
  as u(campaign_id, session_id, seq, seen_batch_count, seen_started_at, now, ${COUNTERS.map(({ column }) => grownName(column)).join(', ')}, facts, first_ts, last_ts, data, ${JUDGED_NAMES})
), counted as (
  update sessions s set last_activity_at = v.now, duration_ms = ${durationSql('postgres', 'v.now - s.started_at', '(v.f).active_ms')}, ${raiseSql('postgres', 's', by)},
    ${FACT_VALUE_COLUMNS.map((column) => `${column} = (v.f).${column}`).join(', ')}, entry_url = coalesce(s.entry_url, (v.f).entry_url)
  from v
  where s.campaign_id = v.campaign_id and s.id = v.session_id and s.closed_reason is null
    and s.batch_count = v.seen_batch_count and s.started_at = v.seen_started_at
    and ${withinCapsSql('s', by, (column) => p(limitName(column)))}
    and not exists (select from chunks c where c.campaign_id = v.campaign_id and c.session_id = v.session_id and c.seq = v.seq)
    and v.campaign_ok
  returning s.campaign_id, s.id, ${answer('s')}
), stored as (
  insert into chunks (${chunkColumns})
  select v.campaign_id, v.session_id, v.seq, v.first_ts, v.last_ts, v.${grownName('event_count')}, octet_length(v.data), v.data, v.now, 1
  from v join counted c on c.campaign_id = v.campaign_id and c.id = v.session_id
)
select true as applied, c.campaign_id, c.id, ${answer('c')} from counted c
union all
select false, s.campaign_id, s.id, ${answer('s')}
from v join sessions s on s.campaign_id = v.campaign_id and s.id = v.session_id
where v.campaign_ok and not exists (select from counted c where c.campaign_id = v.campaign_id and c.id = v.session_id)`;
});

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

/**
 * Starts new sessions with their first batches: the campaign's counter is raised for its new
 * sessions only if all of them fit under its limit, and only those campaigns' sessions go in.
 * A session another request inserts meanwhile fails the statement whole (its unique key), so
 * no place is ever counted for a session not started.
 */
export const startStatement = new Statement<string>('postgres', (p) => {
  const admission = admissionSql('k', 'w.n');
  return `with v as materialized (
  select json_populate_record(null::sessions, u.row) as r, u.seq, u.first_ts, u.last_ts, u.data, ${campaignUnchanged('u')} as campaign_ok
  from unnest(${p('campaign')}::text[], ${p('row')}::json[], ${p('seq')}::int[], ${p('first_ts')}::bigint[], ${p('last_ts')}::bigint[], ${p('data')}::bytea[], ${judgedArrays(p)})
  as u(campaign_id, row, seq, first_ts, last_ts, data, ${JUDGED_NAMES})
), fresh as (
  select * from v
  where campaign_ok and not exists (select from sessions s where s.campaign_id = (v.r).campaign_id and s.id = (v.r).id)
), wanted as (
  select (r).campaign_id as campaign_id, count(*)::int as n from fresh group by (r).campaign_id
), admitted as (
  update campaigns k set ${admission.set} from wanted w where k.id = w.campaign_id and ${admission.fits}
  returning k.id
), started as (
  insert into sessions select (f.r).* from fresh f where (f.r).campaign_id in (select id from admitted)
  returning campaign_id, id, ${STATE_COLUMNS.join(', ')}
), stored as (
  insert into chunks (${chunkColumns})
  select s.campaign_id, s.id, f.seq, f.first_ts, f.last_ts, (f.r).event_count, octet_length(f.data), f.data, (f.r).last_activity_at, 1
  from fresh f join started s on s.campaign_id = (f.r).campaign_id and s.id = (f.r).id
)
select coalesce((select json_agg(s) from started s), '[]') as started`;
});

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
    // A few small groups at once, each on its own pooled connection.
    this.#transactions = new GroupedTransactions(db, 'postgres', caps, this.#rows, { concurrency: 4, maxGroup: 4 });
    this.#counting = new StatementGroups(
      async (group) => {
        const { rows } = await countStatement.run<CountedRow>(db, countValues(group, caps));
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
          const [{ started }] = (await startStatement.run<{ started: (SessionState & { campaign_id: string; id: string })[] }>(db, startValues(group))).rows;
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
