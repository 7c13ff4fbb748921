import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/index.js';
import { PREPARED } from '../db/index.js';
import { StatementGroups, type ShortWayLog } from './statement-groups.js';
import { RecentlyUsed } from '../recently-used.js';
import { campaignUnchanged, judgedArrays, JUDGED_NAMES } from './judged-campaign.js';
import type { CampaignRow } from '../campaigns/repository.js';
import type { PackedBatch } from './pack-batch.js';
import { foldFacts } from '../../common/session-facts.js';
import { factValues, factsOfRow, STATE_COLUMNS, VERDICT_COLUMNS, type CountedSession, type SessionCaps, type SessionState } from '../sessions/repository.js';

/**
 * Ingest's short way on PostgreSQL for a batch of a session this node has seen: the batch is
 * counted and its chunk stored by one statement shared with the other batches that arrived
 * together, with no transaction around it and no read before it. The session's row as this
 * node last saw it is only a guess; the statement checks it under the row's lock, with the
 * campaign's rules the batch was judged by. Whatever does not match (another node wrote the
 * session, a cap, a retried batch, a changed campaign) is left untouched for the long way
 * (store.ts), which reads everything afresh.
 */

/**
 * Sessions this node counted or read lately, with their row as it then was: the short way's
 * guesses on PostgreSQL; on SQLite, where the server is the only writer, the long way's row too.
 */
export class KnownSessions {
  /** Bounded: a row is a few hundred bytes; a forgotten session only takes the long way once. */
  readonly #rows = new RecentlyUsed<string, SessionState>(5_000);

  get(campaignId: string, sessionId: string): SessionState | undefined {
    return this.#rows.get(`${campaignId}/${sessionId}`);
  }

  keep(campaignId: string, sessionId: string, row: SessionState): void {
    this.#rows.set(`${campaignId}/${sessionId}`, row);
  }

  forget(campaignId: string, sessionId: string): void {
    this.#rows.delete(`${campaignId}/${sessionId}`);
  }
}

/** The short way's answer: the row as counted, or, when nothing was written, the row as it is (if there is one). */
export type KnownWrite = { applied: true; row: CountedSession } | { applied: false; current: SessionState | undefined };

interface Pending {
  key: string;
  bytes: number;
  campaign: CampaignRow;
  batch: PackedBatch;
  known: SessionState;
  now: number;
}

type WrittenRow = CountedSession & { applied: boolean; campaign_id: string; id: string };

/** The session row's columns the statement answers with, from the table alias given. */
const answerColumns = (alias: string) => sql.join([...STATE_COLUMNS, ...VERDICT_COLUMNS].map((column) => sql.ref(`${alias}.${column}`)));

/**
 * The statement for a group of batches of distinct sessions. Its text never changes (every value
 * is an array parameter), so PostgreSQL parses and plans it once per connection.
 *
 * Per batch it is all or nothing: the UPDATE counts only a row still as read, with no chunk of
 * that seq stored, within the caps and under unchanged campaign rules; the INSERT stores the
 * chunks of the rows counted. Any writer of a chunk counts its row first, so a chunk stored
 * since this statement's snapshot changed `batch_count`, which the UPDATE sees once it holds
 * the row's lock. Should the INSERT still meet a stored chunk, it fails the statement whole.
 */
function writeStatement(group: Pending[], caps: SessionCaps): RawBuilder<WrittenRow> {
  const rows = group.map((item) => {
    const facts = foldFacts(factsOfRow(item.known), item.batch.moments);
    return { item, facts: { ...factValues(facts), entry_url: facts.entryUrl } };
  });
  const column = <T>(pick: (item: Pending, facts: (typeof rows)[number]['facts']) => T) => rows.map(({ item, facts }) => pick(item, facts));
  return sql<WrittenRow>`${sql.raw(PREPARED)}with v as materialized (
  select u.*, ${campaignUnchanged('u')} as campaign_ok
  from unnest(
    ${column((i) => i.campaign.id)}::text[], ${column((i) => i.batch.sessionId)}::text[], ${column((i) => i.batch.seq)}::int[],
    ${column((i) => i.known.batch_count)}::int[], ${column((i) => i.known.started_at)}::bigint[], ${column((i) => i.now)}::bigint[],
    ${column((i) => i.batch.eventCount)}::int[], ${column((i) => i.batch.jsonBytes)}::bigint[], ${column((i) => i.batch.pageLoads)}::int[],
    ${column((i) => (i.batch.humanInput ? 1 : 0))}::int[],
    ${column((_, f) => f.active_ms)}::bigint[], ${column((_, f) => f.click_count)}::int[], ${column((_, f) => f.rage_click_count)}::int[],
    ${column((_, f) => f.dead_click_count)}::int[], ${column((_, f) => f.error_count)}::int[], ${column((_, f) => f.failed_request_count)}::int[],
    ${column((_, f) => f.pages)}::text[], ${column((_, f) => f.exit_url)}::text[], ${column((_, f) => f.facts_carry)}::text[], ${column((_, f) => f.entry_url)}::text[],
    ${column((i) => i.batch.firstTs)}::bigint[], ${column((i) => i.batch.lastTs)}::bigint[], ${column((i) => i.batch.chunk)}::bytea[],
    ${judgedArrays(group.map((i) => i.campaign))}
  ) as u(campaign_id, session_id, seq, known_count, known_start, now, event_count, json_bytes, page_loads, human,
         active_ms, click_count, rage_click_count, dead_click_count, error_count, failed_request_count, pages, exit_url, facts_carry, entry_url,
         first_ts, last_ts, data, ${JUDGED_NAMES})
), counted as (
  update sessions s set
    last_activity_at = v.now, duration_ms = v.now - s.started_at,
    event_count = s.event_count + v.event_count, byte_count = s.byte_count + v.json_bytes,
    batch_count = s.batch_count + 1, page_count = s.page_count + v.page_loads,
    has_human_input = greatest(s.has_human_input, v.human),
    active_ms = v.active_ms, click_count = v.click_count, rage_click_count = v.rage_click_count,
    dead_click_count = v.dead_click_count, error_count = v.error_count, failed_request_count = v.failed_request_count,
    pages = v.pages, exit_url = v.exit_url, facts_carry = v.facts_carry, entry_url = coalesce(s.entry_url, v.entry_url)
  from v
  where s.campaign_id = v.campaign_id and s.id = v.session_id
    and s.batch_count = v.known_count and s.started_at = v.known_start and s.closed_reason is null
    and s.byte_count <= ${caps.sessionMaxBytes} - v.json_bytes and s.event_count <= ${caps.sessionMaxEvents} - v.event_count
    and s.batch_count < ${caps.sessionMaxBatches}
    and not exists (select from chunks c where c.campaign_id = v.campaign_id and c.session_id = v.session_id and c.seq = v.seq)
    and v.campaign_ok
  returning s.campaign_id, s.id, ${answerColumns('s')}
), stored as (
  insert into chunks (campaign_id, session_id, seq, first_ts, last_ts, event_count, byte_size, data, created_at, sorted)
  select v.campaign_id, v.session_id, v.seq, v.first_ts, v.last_ts, v.event_count, octet_length(v.data), v.data, v.now, 1
  from v join counted c on c.campaign_id = v.campaign_id and c.id = v.session_id
)
select true as applied, c.campaign_id, c.id, ${answerColumns('c')} from counted c
union all
select false, s.campaign_id, s.id, ${answerColumns('s')}
from v join sessions s on s.campaign_id = v.campaign_id and s.id = v.session_id
where v.campaign_ok and not exists (select from counted c where c.campaign_id = v.campaign_id and c.id = v.session_id)`;
}

/**
 * Counts and stores batches of sessions this node has seen, the batches that arrive together by
 * one statement. A failed statement (a deadlock between nodes, say) wrote nothing: each of its
 * batches then takes the long way.
 */
export class KnownSessionWriter {
  readonly #groups: StatementGroups<Pending, KnownWrite>;

  constructor(db: Db, caps: SessionCaps, log: ShortWayLog) {
    this.#groups = new StatementGroups(
      async (group) => {
        const rows = (await writeStatement(group, caps).execute(db)).rows;
        return new Map(rows.map((row): [string, KnownWrite] => [`${row.campaign_id}/${row.id}`, row.applied ? { applied: true, row } : { applied: false, current: row }]));
      },
      { applied: false, current: undefined },
      log,
    );
  }

  /** Counts and stores the batch if the session is still `known`; resolves once it is committed (or was not written). */
  write(campaign: CampaignRow, batch: PackedBatch, known: SessionState, now: number): Promise<KnownWrite> {
    return this.#groups.submit({ key: `${campaign.id}/${batch.sessionId}`, bytes: batch.chunk.byteLength, campaign, batch, known, now });
  }
}
