import { gunzipSync, gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Chunks rewritten a page at a time, so a large database never sits in memory. */
const PAGE = 200;

/**
 * Every chunk's events in time order, so a chunk has one format (server/storage/chunk-codec.ts):
 * chunks stored before 0003 (`sorted` = 0, a JSON array of events as they came) are sorted and
 * written again. Every writer since stores them sorted; `sorted` is 1 everywhere afterwards and
 * read by nothing (the ingest statements still name it).
 */
export async function up(db: AnyDb): Promise<void> {
  for (;;) {
    const rows = await db.selectFrom('chunks').select(['campaign_id', 'session_id', 'seq', 'data']).where('sorted', '=', 0).limit(PAGE).execute();
    if (!rows.length) return;
    for (const row of rows) {
      const events = (JSON.parse(gunzipSync(row.data as Uint8Array).toString('utf8')) as { timestamp: number }[]).sort((a, b) => a.timestamp - b.timestamp);
      const data = gzipSync(JSON.stringify(events));
      await db
        .updateTable('chunks')
        .set({
          data,
          byte_size: data.byteLength,
          first_ts: events.length ? events[0].timestamp : 0,
          last_ts: events.length ? events[events.length - 1].timestamp : 0,
          sorted: 1,
        })
        .where('campaign_id', '=', row.campaign_id)
        .where('session_id', '=', row.session_id)
        .where('seq', '=', row.seq)
        .execute();
    }
  }
}

/** Nothing to undo: sorted chunks are what 0003's readers wanted too. */
export async function down(): Promise<void> {}
