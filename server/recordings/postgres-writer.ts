import type { Db } from '../db/index.js';
import { STATE_COLUMNS } from '../sessions/rows.js';
import { NOTHING_COUNTED, capReached, type Destination, type RecordedBatch, type SessionCaps, type SessionState, type WriteOutcome } from './rules.js';
import { StatementGroups, type WriterLog } from './statement-groups.js';
import { GroupedTransactions, LastSeenRows } from './transaction-writer.js';
import { countStatement, countValues, startStatement, startValues, type CountedRow, type Counting, type Starting } from './postgres-statements.js';
import { firstBatchRow, foldedFacts } from './session-rows.js';
import type { FactMarks } from '../../common/session-facts.js';
import { judgedAlike } from './judged-campaign.js';

type CountAnswer = { applied: true; row: CountedRow } | { applied: false; current: SessionState | undefined };

const keyOf = (campaignId: string, sessionId: string) => `${campaignId}/${sessionId}`;
const stateOf = (row: SessionState) => Object.fromEntries(STATE_COLUMNS.map((column) => [column, row[column]])) as SessionState;
/** PostgreSQL's unique_violation: a session another request started while the statement ran. */
const isStartedElsewhere = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * PostgreSQL: other nodes write too, so the row this node last saw and the campaign it judged a
 * batch by are only what it expects; the shared statements (postgres-statements.ts) check both
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
