import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/index.js';
import { PREPARED } from '../db/index.js';
import { releaseSessionPlaces, type CampaignRow } from '../campaigns/repository.js';
import type { PackedBatch } from './pack-batch.js';
import { StatementGroups, type ShortWayLog } from './statement-groups.js';
import { campaignUnchanged, judgedArrays, JUDGED_NAMES } from './judged-campaign.js';
import { STATE_COLUMNS, type SessionRow, type SessionState } from '../sessions/repository.js';

/**
 * Ingest's short way on PostgreSQL for the first batch of a new session: the session is
 * admitted, inserted already counted (store.ts's firstBatchRow) and its chunk stored, by one
 * statement shared with the first batches that arrived together. The campaign's rules the
 * batch was judged by are checked there; the campaign's counter is raised for its new
 * sessions only if all of them fit under its limit. Whatever does not go in (a changed
 * campaign, a limit about to be reached, a session another request started) is left to the
 * long way (store.ts), which admits one session at a time.
 */

interface Starting {
  key: string;
  bytes: number;
  campaign: CampaignRow;
  batch: PackedBatch;
  row: SessionRow;
}

interface Answer {
  started: Array<SessionState & { campaign_id: string; id: string }>;
  /** [campaign id, sessions counted]: the campaigns whose counter the statement raised. */
  admitted: Array<[string, number]>;
}

function startStatement(group: Starting[]): RawBuilder<Answer> {
  const column = <T>(pick: (item: Starting) => T) => group.map(pick);
  const answerColumns = sql.join(STATE_COLUMNS.map((name) => sql.ref(name)));
  return sql<Answer>`${sql.raw(PREPARED)}with v as materialized (
  select json_populate_record(null::sessions, u.row) as r, u.seq, u.first_ts, u.last_ts, u.data, ${campaignUnchanged('u')} as campaign_ok
  from unnest(
    ${column((i) => i.campaign.id)}::text[], ${column((i) => JSON.stringify(i.row))}::json[], ${column((i) => i.batch.seq)}::int[],
    ${column((i) => i.batch.firstTs)}::bigint[], ${column((i) => i.batch.lastTs)}::bigint[], ${column((i) => i.batch.chunk)}::bytea[],
    ${judgedArrays(group.map((i) => i.campaign))}
  ) as u(campaign_id, row, seq, first_ts, last_ts, data, ${JUDGED_NAMES})
), fresh as (
  select * from v
  where campaign_ok and not exists (select from sessions s where s.campaign_id = (v.r).campaign_id and s.id = (v.r).id)
), wanted as (
  select (r).campaign_id as campaign_id, count(*)::int as n from fresh group by (r).campaign_id
), admitted as (
  update campaigns k set session_count = k.session_count + w.n from wanted w
  where k.id = w.campaign_id and (k.session_limit = 0 or k.session_count + w.n <= k.session_limit)
  returning k.id, w.n
), started as (
  insert into sessions select (f.r).* from fresh f where (f.r).campaign_id in (select id from admitted)
  on conflict (campaign_id, id) do nothing
  returning campaign_id, id, ${answerColumns}
), stored as (
  insert into chunks (campaign_id, session_id, seq, first_ts, last_ts, event_count, byte_size, data, created_at, sorted)
  select s.campaign_id, s.id, f.seq, f.first_ts, f.last_ts, (f.r).event_count, octet_length(f.data), f.data, (f.r).last_activity_at, 1
  from fresh f join started s on s.campaign_id = (f.r).campaign_id and s.id = (f.r).id
)
select coalesce((select json_agg(s) from started s), '[]') as started,
       coalesce((select json_agg(json_build_array(a.id, a.n)) from admitted a), '[]') as admitted`;
}

/** Starts new sessions with their first batches, the ones that arrive together by one statement. */
export class NewSessionWriter {
  readonly #groups: StatementGroups<Starting, SessionState | undefined>;

  constructor(
    private readonly db: Db,
    private readonly log: ShortWayLog,
  ) {
    this.#groups = new StatementGroups(async (group) => this.#start(group), undefined, log);
  }

  /** The session's row as started with this batch; undefined when it was not (the long way then decides). */
  start(campaign: CampaignRow, batch: PackedBatch, row: SessionRow): Promise<SessionState | undefined> {
    return this.#groups.submit({ key: `${campaign.id}/${batch.sessionId}`, bytes: batch.chunk.byteLength, campaign, batch, row });
  }

  async #start(group: Starting[]): Promise<Map<string, SessionState>> {
    const [answer] = (await startStatement(group).execute(this.db)).rows;
    const started = new Map(answer.started.map((row) => [`${row.campaign_id}/${row.id}`, row]));
    // A session another request inserted meanwhile was counted by both: give its place back.
    // (Those started are answered whatever happens here: they are committed.)
    for (const [campaignId, counted] of answer.admitted) {
      const extra = counted - answer.started.filter((row) => row.campaign_id === campaignId).length;
      if (extra > 0) {
        await releaseSessionPlaces(this.db, campaignId, extra).catch((error: unknown) =>
          this.log.warn({ err: error, campaignId }, "places counted for sessions another request started were not given back: the campaign's count is high"),
        );
      }
    }
    return started;
  }
}
