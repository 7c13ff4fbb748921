import type { Dialect } from '../db/executor.js';
import { durationSql } from '../sessions/duration.js';
import { emptyFacts } from '../../common/session-facts.js';
import { factValues, sessionRow, STATE_COLUMNS, VERDICT_COLUMNS, type SessionRow } from '../sessions/rows.js';
import { CAPS, COUNTERS, JUDGED, judgedName, grownName, limitName, type ChunkRow } from './rules.js';
import { Statement, type Param } from '../db/statement.js';

// The text of every statement a batch runs, written once when a writer is made (a batch only
// binds values: db/statement.ts): the counters' SET, the caps' WHERE and the admission from
// the rules, the transaction writer's statements and PostgreSQL's two shared statements. No code
// of this file runs for a batch, so it is not on the write spine (docs/architecture.md).

/**
 * SQL: the SET assignments that raise the counters of `row` (the updated table's alias), where
 * `by(column)` is what the batch adds to it.
 */
export function raiseSql(dialect: Dialect, row: string, by: (column: string) => string): string {
  const max = dialect === 'postgres' ? 'greatest' : 'max';
  return COUNTERS.map(({ column, flag }) =>
    flag ? `${column} = ${max}(${row}.${column}, ${by(column)})` : `${column} = ${row}.${column} + ${by(column)}`,
  ).join(', ');
}

/** SQL: `row` stays within every cap once raised by the batch; `limit(column)` is the cap's value. */
export function withinCapsSql(row: string, by: (column: string) => string, limit: (column: string) => string): string {
  return CAPS.map(({ column }) => `${row}.${column} <= ${limit(column)} - ${by(column)}`).join(' and ');
}

/**
 * SQL: the campaign `k` admits `n` more sessions only if all fit under its limit (0: none), by
 * one conditional UPDATE, so concurrent first batches never admit past it.
 */
export const admissionSql = (k: string, n: string) => ({
  set: `session_count = ${k}.session_count + ${n}`,
  fits: `(${k}.session_limit = 0 or ${k}.session_count + ${n} <= ${k}.session_limit)`,
});

/** The columns factValues writes (a fact added there flows into every statement that writes facts). */
export const FACT_VALUE_COLUMNS = Object.keys(factValues(emptyFacts())) as (keyof ReturnType<typeof factValues>)[];

/** Every column of a session's row, in one order (a column added to the table's defaults flows in). */
export const SESSION_COLUMNS = Object.keys(sessionRow({ campaign_id: '', id: '', started_at: 0 })) as (keyof SessionRow)[];

export const CHUNK_COLUMNS = [
  'campaign_id',
  'session_id',
  'seq',
  'first_ts',
  'last_ts',
  'event_count',
  'byte_size',
  'data',
  'created_at',
  'sorted',
] as const satisfies readonly (keyof ChunkRow)[];

/** `unnest`'s array parameters of the judged columns. */
export const judgedArrays = (p: Param<string>) => JUDGED.map(([column, type]) => `${p(judgedName(column))}::${type}[]`).join(', ');

/** `unnest`'s names for those arrays, in the same order. */
export const JUDGED_NAMES = JUDGED.map(([column]) => judgedName(column)).join(', ');

/** SQL: true where the campaign of `alias`'s row (with `campaign_id`) still has the columns it was judged by. */
export function campaignUnchanged(alias: string): string {
  const same = JUDGED.map(([column]) => `k.${column} = ${alias}.${judgedName(column)}`).join(' and ');
  return `exists (select from campaigns k where k.id = ${alias}.campaign_id and ${same})`;
}

/** The statements of one batch's transaction (transaction-writer.ts), in the database's dialect. */
export function transactionStatements(dialect: Dialect) {
  const where = (p: (name: 'campaign' | 'session') => string) => `campaign_id = ${p('campaign')} and id = ${p('session')}`;
  const read = new Statement<'campaign' | 'session'>(
    dialect,
    (p) => `select ${STATE_COLUMNS.join(', ')} from sessions where ${where(p)}${dialect === 'postgres' ? ' for update' : ''}`,
  );
  // The row is counted only as last seen (batch_count and started_at tell one state from
  // another), within the caps: its facts were folded from that row.
  const count = new Statement<string>(dialect, (p) => {
    // Typed: PostgreSQL cannot tell what `$1 - $2` subtracts.
    const by = (column: string) => `cast(${p(grownName(column))} as bigint)`;
    const facts = FACT_VALUE_COLUMNS.map((column) => `${column} = ${p(column)}`).join(', ');
    return `update sessions as s set last_activity_at = ${p('now')}, duration_ms = ${durationSql(dialect, `${p('now')} - s.started_at`, `cast(${p('active_ms')} as bigint)`)}, ${raiseSql(dialect, 's', by)}, ${facts},
entry_url = coalesce(s.entry_url, ${p('entry_url')})
where s.campaign_id = ${p('campaign')} and s.id = ${p('session')} and s.closed_reason is null
and s.batch_count = ${p('seen_batch_count')} and s.started_at = ${p('seen_started_at')}
and ${withinCapsSql('s', by, (column) => `cast(${p(limitName(column))} as bigint)`)}
returning ${[...STATE_COLUMNS, ...VERDICT_COLUMNS].join(', ')}`;
  });
  const insert = (table: string, columns: readonly string[], conflict: string) =>
    new Statement<string>(
      dialect,
      (p) => `insert into ${table} (${columns.join(', ')}) values (${columns.map((column) => p(column)).join(', ')}) on conflict (${conflict}) do nothing`,
    );
  const insertSession = insert('sessions', SESSION_COLUMNS, 'campaign_id, id');
  const insertChunk = insert('chunks', CHUNK_COLUMNS, 'campaign_id, session_id, seq');
  const admission = admissionSql('k', '1');
  const admit = new Statement<'campaign'>(dialect, (p) => `update campaigns as k set ${admission.set} where k.id = ${p('campaign')} and ${admission.fits}`);
  const holdCampaign =
    dialect === 'postgres' ? new Statement<'campaign'>(dialect, (p) => `select from campaigns where id = ${p('campaign')} for no key update`) : undefined;
  const close = new Statement<'reason' | 'campaign' | 'session'>(
    dialect,
    (p) => `update sessions set closed_reason = ${p('reason')} where ${where(p)} and closed_reason is null`,
  );
  const verdict = new Statement<'is_bot' | 'bot_reason' | 'campaign' | 'session' | 'batch_count'>(
    dialect,
    (p) => `update sessions set is_bot = ${p('is_bot')}, bot_reason = ${p('bot_reason')} where ${where(p)} and batch_count = ${p('batch_count')}`,
  );
  return { read, count, insertSession, insertChunk, admit, holdCampaign, close, verdict };
}

export type TransactionStatements = ReturnType<typeof transactionStatements>;

// PostgreSQL's shared statements (postgres-batching.ts): each item of a group is a row of array
// parameters, so the text never changes with the group's size.

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
