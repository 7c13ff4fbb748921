// What a deleted session fed, taken off the aggregates. Whatever deletes a session (its owner,
// the campaign's deletion, retention, the account's erasure) cascades to its contributions
// (heatmap_feeds), and a trigger queues each one in heatmap_unfed (migration 0021); here the
// queue is drained: before a heatmap is read, and by the periodic flush for every campaign.
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import { readFed } from './fed.js';

const LAYER_COLUMNS = ['clicks', 'rage_clicks', 'dead_clicks', 'error_clicks'] as const;

/** Takes a campaign's queued contributions off its aggregates, and drops rows that count nothing any more. */
export async function drainUnfed(db: Db, campaignId: string): Promise<number> {
  // Most reads find nothing queued: no write transaction for them.
  if (!(await db.selectFrom('heatmap_unfed').select('campaign_id').where('campaign_id', '=', campaignId).limit(1).executeTakeFirst())) return 0;
  return db.transaction().execute(async (trx) => {
    // Deleted as they are read: two drains at once never take one off twice.
    const rows = await trx.deleteFrom('heatmap_unfed').where('campaign_id', '=', campaignId).returningAll().execute();
    if (!rows.length) return 0;
    const campaign = await trx.selectFrom('campaigns').select('id').where('id', '=', campaignId).executeTakeFirst();
    if (!campaign) return rows.length; // its aggregates went with it
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const key = (q: any, k: { page: string; device: string; day: number }) =>
      q.where('campaign_id', '=', campaignId).where('page', '=', k.page).where('device', '=', k.device).where('day', '=', k.day);
    for (const row of rows) {
      const fed = readFed(row.fed);
      const minus = (column: string, n: number) => sql`${sql.ref(column)} - ${n}`;
      const layers = (l: number[]) => Object.fromEntries(LAYER_COLUMNS.map((c, i) => [c, minus(c, l[i] ?? 0)]));
      const had = (i: number) => ((fed.layers[i] ?? 0) > 0 ? 1 : 0);
      await key(trx.updateTable('heatmap_pages'), row)
        .set({
          views: minus('views', fed.views),
          sessions: minus('sessions', 1),
          fold_sum: minus('fold_sum', fed.fold),
          ...layers(fed.layers),
          rage_sessions: minus('rage_sessions', had(1)),
          dead_sessions: minus('dead_sessions', had(2)),
          error_sessions: minus('error_sessions', had(3)),
        })
        .execute();
      for (const [selector, element] of Object.entries(fed.elements)) {
        await key(trx.updateTable('heatmap_elements'), row)
          .set({ ...layers(element.layers), fx_sum: minus('fx_sum', element.fx), fy_sum: minus('fy_sum', element.fy) })
          .where('selector', '=', selector)
          .execute();
      }
      for (const [bin, l] of Object.entries(fed.bins)) await key(trx.updateTable('heatmap_bins'), row).set(layers(l)).where('bin', '=', Number(bin)).execute();
      for (const [i, reached] of fed.scroll.entries())
        if (reached)
          await key(trx.updateTable('heatmap_scroll'), row)
            .set({ reached: minus('reached', reached) })
            .where('depth', '=', i * 10)
            .execute();
    }
    // A page whose picture came from a deleted session takes the latest of the sessions left.
    const gone = [...new Set(rows.map((r) => r.session_id))];
    const orphaned = await trx
      .selectFrom('heatmap_pages')
      .select(['page', 'device', 'day'])
      .where('campaign_id', '=', campaignId)
      .where('snapshot_session', 'in', gone)
      .execute();
    for (const page of orphaned) {
      const latest = await trx
        .selectFrom('heatmap_feeds')
        .select(['session_id', 'last_at'])
        .where('campaign_id', '=', campaignId)
        .where('page', '=', page.page)
        .where('device', '=', page.device)
        .where('day', '=', page.day)
        .orderBy('last_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      await key(trx.updateTable('heatmap_pages'), page)
        .set({ snapshot_session: latest?.session_id ?? null, snapshot_at: latest?.last_at ?? null })
        .execute();
    }
    await trx.deleteFrom('heatmap_pages').where('campaign_id', '=', campaignId).where('sessions', '<=', 0).where('views', '<=', 0).execute();
    await trx.deleteFrom('heatmap_elements').where('campaign_id', '=', campaignId).where('clicks', '<=', 0).execute();
    await trx.deleteFrom('heatmap_bins').where('campaign_id', '=', campaignId).where('clicks', '<=', 0).execute();
    await trx.deleteFrom('heatmap_scroll').where('campaign_id', '=', campaignId).where('reached', '<=', 0).execute();
    return rows.length;
  });
}

/** Drains every campaign with queued contributions (a few at a time): the periodic job's share. */
export async function drainAllUnfed(db: Db, campaigns = 20): Promise<void> {
  const rows = await db.selectFrom('heatmap_unfed').select('campaign_id').distinct().limit(campaigns).execute();
  for (const row of rows) await drainUnfed(db, row.campaign_id);
}
