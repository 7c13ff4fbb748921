import type { CampaignRow } from '../db/schema.js';
import { STATE_COLUMNS, VERDICT_COLUMNS, type SessionRow } from '../sessions/rows.js';
import { COUNTERS, admissionSql, capValues, grownName, limitName, raiseSql, withinCapsSql, type CountedSession, type RecordedBatch, type SessionCaps, type SessionState } from './rules.js';
import { CHUNK_COLUMNS, FACT_VALUE_COLUMNS, type FoldedFacts } from './session-rows.js';
import { JUDGED_NAMES, campaignUnchanged, judgedArrays, judgedValues } from './judged-campaign.js';
import { Statement } from './statement.js';
import { durationSql } from '../sessions/duration.js';

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

/** A new session's first batch, with the row it starts (counted: session-rows.ts's firstBatchRow). */
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
