import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { SegmentsTable } from '../db/schema.js';
import type { Segment, SegmentChanges, SegmentFilters } from '../../common/api/segments.js';

/** Saves, renames and deletes one owner may make a minute. */
export const SEGMENT_WRITES_PER_USER = 60;

/** The segments table: a campaign's saved filters of its sessions list. */

const toSegment = (row: Selectable<SegmentsTable>): Segment => ({
  id: row.id,
  name: row.name,
  filters: JSON.parse(row.filters) as SegmentFilters,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listSegments(db: Executor, campaignId: string): Promise<Segment[]> {
  const rows = await db.selectFrom('segments').selectAll().where('campaign_id', '=', campaignId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toSegment);
}

/**
 * Adds a segment unless the campaign has `max` already: counted and inserted in one
 * transaction (serialised on the campaign's row on PostgreSQL), so two saves at once cannot pass
 * the bound together. Undefined when at the bound.
 */
export async function addSegment(
  db: Db,
  campaignId: string,
  segment: { name: string; filters: SegmentFilters },
  max: number,
  now = Date.now(),
): Promise<Segment | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('campaigns')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', campaignId)
      .execute();
    const { n } = await trx
      .selectFrom('segments')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('campaign_id', '=', campaignId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return undefined;
    const row = {
      id: crypto.randomUUID(),
      campaign_id: campaignId,
      name: segment.name,
      filters: JSON.stringify(segment.filters),
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('segments').values(row).execute();
    return toSegment(row);
  });
}

/** Renames a segment or replaces its filters; undefined when the campaign has no such segment. */
export async function changeSegment(
  db: Executor,
  campaignId: string,
  segmentId: string,
  changes: SegmentChanges,
  now = Date.now(),
): Promise<Segment | undefined> {
  const row = await db
    .updateTable('segments')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.filters ? { filters: JSON.stringify(changes.filters) } : {}),
      updated_at: now,
    })
    .where('campaign_id', '=', campaignId)
    .where('id', '=', segmentId)
    .returningAll()
    .executeTakeFirst();
  return row && toSegment(row);
}

export async function deleteSegment(db: Executor, campaignId: string, segmentId: string): Promise<boolean> {
  const result = await db.deleteFrom('segments').where('campaign_id', '=', campaignId).where('id', '=', segmentId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
