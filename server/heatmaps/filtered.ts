// A heatmap of the sessions a list filter picks (type, country, user, has rage clicks, …). The day
// aggregates (store.ts) count every session, so a filtered heatmap adds up the matching
// sessions' own contributions instead: heatmap_feeds holds what each session fed each page,
// device class and day, written at ingest with the aggregates — never the chunks. Bounded: the
// newest MAX_FILTERED_FEEDS contributions are counted, and the answer says when more matched.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../db/index.js';
import type { Heatmap } from '../../common/api/heatmaps.js';
import { BIN_COLUMNS, BIN_ROW_PX, SCROLL_STEP } from '../../common/heatmaps.js';
import type { ViewportClass } from '../../common/devices.js';
import { filtered } from '../sessions/repository.js';
import type { SessionFilters } from '../sessions/query.js';
import { addFed, emptyFed, readFed, type Layers } from './fed.js';
import { days, TOP_BINS, topElements, type Range } from './repository.js';
import type { SlicedRead } from '../db/sliced-read.js';

/** A filtered heatmap counts at most this many contributions (a session's share of one day), the newest days first. */
export const MAX_FILTERED_FEEDS = 5_000;

/**
 * A heatmap_feeds row whose session matches the filters: the list's own SQL (sessions/repository.ts)
 * on the unaliased sessions row, so its columns and the funnel condition mean what they mean there.
 */
export function bySessions(db: Db, filters: SessionFilters) {
  const sessions = filtered(
    db
      .selectFrom('sessions')
      .select('sessions.id')
      .where(sql<SqlBool>`sessions.campaign_id = heatmap_feeds.campaign_id and sessions.id = heatmap_feeds.session_id`),
    filters,
  );
  return (eb: ExpressionBuilder<Database, 'heatmap_feeds'>): Expression<SqlBool> => eb.exists(sessions);
}

const layerCounts = (l: Layers) => ({ clicks: l[0], rageClicks: l[1], deadClicks: l[2], errorClicks: l[3] });

/** One page's heatmap at one device class over a range, from the matching sessions only. */
export async function filteredHeatmap(
  read: SlicedRead,
  campaignId: string,
  page: { path: string; device: ViewportClass },
  range: Range,
  filters: SessionFilters,
  cap = MAX_FILTERED_FEEDS,
): Promise<Heatmap> {
  const { db } = read;
  const [first, last] = days(range);
  // By the (campaign, page, device, day) index, newest day first: the walk stops at the cap.
  const rows = await db
    .selectFrom('heatmap_feeds')
    .select(['session_id', 'fed', 'last_at'])
    .where('campaign_id', '=', campaignId)
    .where('page', '=', page.path)
    .where('device', '=', page.device)
    .where('day', '>=', first)
    .where('day', '<=', last)
    .where(bySessions(db, filters))
    .orderBy('day', 'desc')
    .limit(cap + 1)
    .execute();
  const counted = rows.slice(0, cap);
  const total = emptyFed();
  const withLayer = [0, 0, 0, 0];
  let snapshot: Heatmap['snapshot'] = null;
  // Up to MAX_FILTERED_FEEDS contributions parsed and added: in slices (a heavy read).
  await read.each(counted, (row) => {
    const fed = readFed(row.fed);
    addFed(total, fed);
    fed.layers.forEach((n, i) => (withLayer[i] += n > 0 ? 1 : 0));
    const at = Number(row.last_at);
    if (!snapshot || at > snapshot.timestamp) snapshot = { sessionId: row.session_id, timestamp: at };
  });
  const elements = Object.entries(total.elements).map(([selector, e]) => ({ selector, text: e.text, ...layerCounts(e.layers), fx: e.fx, fy: e.fy }));
  const bins = Object.entries(total.bins)
    .map(([bin, l]) => ({ bin: Number(bin), l }))
    .sort((a, b) => b.l[0] - a.l[0] || a.bin - b.bin)
    .slice(0, TOP_BINS);
  return {
    ...page,
    ...range,
    views: total.views,
    // As the aggregates count them: a session on two days counts on each.
    sessions: counted.length,
    ...layerCounts(total.layers),
    layerSessions: { rage: withLayer[1], dead: withLayer[2], error: withLayer[3] },
    averageFold: total.views ? Math.round(total.fold / total.views) : 0,
    elements: topElements(elements),
    binColumns: BIN_COLUMNS,
    binRowPx: BIN_ROW_PX,
    bins: bins.map(({ bin, l }) => ({ x: bin % BIN_COLUMNS, y: Math.floor(bin / BIN_COLUMNS), ...layerCounts(l) })),
    scroll: total.scroll.flatMap((reached, i) => (reached > 0 ? [{ depth: i * SCROLL_STEP, reached }] : [])),
    snapshot,
    sampled: rows.length > cap,
  };
}
