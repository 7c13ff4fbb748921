// Reading heatmaps: sums over the days of a range of the aggregates (store.ts), never chunks.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../db/index.js';
import { BIN_COLUMNS, BIN_ROW_PX } from '../../common/heatmaps.js';
import { VIEWPORT_CLASSES, type ViewportClass } from '../../common/devices.js';
import type { Heatmap, HeatmapClicks, HeatmapPages } from '../../common/api/heatmaps.js';
import { dayOf, readFed } from './fed.js';

/** How many rows each list of an answer holds. */
export const TOP_PAGES = 200;
export const TOP_ELEMENTS = 100;
export const TOP_BINS = 3_000;
export const MAX_CLICKERS = 50;

export interface Range {
  from: number;
  to: number;
}

export const days = (range: Range) => [dayOf(range.from), dayOf(Math.max(range.from, range.to - 1))] as const;
const sum = (column: string) => sql<number>`coalesce(sum(${sql.ref(column)}), 0)`;
const num = (value: unknown) => Number(value) || 0;

export async function heatmapPages(db: Db, campaignId: string, range: Range): Promise<HeatmapPages> {
  const [first, last] = days(range);
  const rows = await db
    .selectFrom('heatmap_pages')
    .select(['page', 'device', sum('views').as('views'), sum('sessions').as('sessions'), sum('clicks').as('clicks')])
    .where('campaign_id', '=', campaignId)
    .where('day', '>=', first)
    .where('day', '<=', last)
    .groupBy(['page', 'device'])
    .execute();
  const pages = new Map<string, HeatmapPages['pages'][number]>();
  for (const row of rows) {
    const page = pages.get(row.page) ?? { path: row.page, views: 0, sessions: 0, clicks: 0, devices: { desktop: 0, tablet: 0, mobile: 0 } };
    page.views += num(row.views);
    page.sessions += num(row.sessions);
    page.clicks += num(row.clicks);
    if (VIEWPORT_CLASSES.includes(row.device as ViewportClass)) page.devices[row.device as ViewportClass] += num(row.views);
    pages.set(row.page, page);
  }
  const sorted = [...pages.values()].sort((a, b) => b.views - a.views || b.clicks - a.clicks || a.path.localeCompare(b.path));
  return { ...range, pages: sorted.slice(0, TOP_PAGES) };
}

const LAYER_SUMS = [sum('clicks').as('clicks'), sum('rage_clicks').as('rage'), sum('dead_clicks').as('dead'), sum('error_clicks').as('error')] as const;
const layers = (row: { clicks: unknown; rage: unknown; dead: unknown; error: unknown }) => ({
  clicks: num(row.clicks),
  rageClicks: num(row.rage),
  deadClicks: num(row.dead),
  errorClicks: num(row.error),
});

type Element = Heatmap['elements'][number];

/**
 * The top elements by clicks, and by each other layer (a rage-clicked element may be rarely
 * clicked), most clicked first; fx and fy come in as sums of thousandths, and leave as the
 * average share of the element where its clicks landed.
 */
export function topElements(counted: Element[]): Element[] {
  const elements = new Map<string, Element>();
  for (const layer of ['clicks', 'rageClicks', 'deadClicks', 'errorClicks'] as const) {
    const top = counted.filter((e) => e[layer] > 0).sort((a, b) => b[layer] - a[layer] || (a.selector < b.selector ? -1 : 1));
    for (const element of top.slice(0, TOP_ELEMENTS)) elements.set(element.selector, element);
  }
  const share = (total: number, clicks: number) => (clicks ? Math.min(1, Math.max(0, total / 1000 / clicks)) : 0.5);
  return [...elements.values()]
    .map((e) => ({ ...e, fx: share(e.fx, e.clicks), fy: share(e.fy, e.clicks) }))
    .sort((a, b) => b.clicks - a.clicks || a.selector.localeCompare(b.selector));
}

/** One page's heatmap at one device class over a range. */
export async function heatmapOf(db: Db, campaignId: string, path: string, device: ViewportClass, range: Range): Promise<Heatmap> {
  const [first, last] = days(range);
  const where = <Q extends { where: (...args: never[]) => unknown }>(q: Q): Q =>
    (q as any).where('campaign_id', '=', campaignId).where('page', '=', path).where('device', '=', device).where('day', '>=', first).where('day', '<=', last); // eslint-disable-line @typescript-eslint/no-explicit-any
  const page = await where(db.selectFrom('heatmap_pages'))
    .select([
      sum('views').as('views'),
      sum('sessions').as('sessions'),
      ...LAYER_SUMS,
      sum('rage_sessions').as('rageSessions'),
      sum('dead_sessions').as('deadSessions'),
      sum('error_sessions').as('errorSessions'),
      sum('fold_sum').as('fold'),
    ])
    .executeTakeFirstOrThrow();
  const snapshot = await where(db.selectFrom('heatmap_pages'))
    .select(['snapshot_session', 'snapshot_at'])
    .where('snapshot_session', 'is not', null)
    .orderBy('snapshot_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  // One read of the range's rows (at most 200 selectors a day), ranked here.
  const rows = await where(db.selectFrom('heatmap_elements'))
    .select(['selector', sql<string>`max(${sql.ref('text')})`.as('text'), ...LAYER_SUMS, sum('fx_sum').as('fx'), sum('fy_sum').as('fy')])
    .groupBy('selector')
    .execute();
  const elements = topElements(rows.map((row) => ({ selector: row.selector, text: row.text ?? '', ...layers(row), fx: num(row.fx), fy: num(row.fy) })));
  const bins = await where(db.selectFrom('heatmap_bins'))
    .select(['bin', ...LAYER_SUMS])
    .groupBy('bin')
    .orderBy('clicks', 'desc')
    .orderBy('bin')
    .limit(TOP_BINS)
    .execute();
  const scroll = await where(db.selectFrom('heatmap_scroll'))
    .select(['depth', sum('reached').as('reached')])
    .groupBy('depth')
    .orderBy('depth')
    .execute();
  const views = num(page.views);
  return {
    path,
    device,
    ...range,
    views,
    sessions: num(page.sessions),
    ...layers(page),
    layerSessions: { rage: num(page.rageSessions), dead: num(page.deadSessions), error: num(page.errorSessions) },
    averageFold: views ? Math.round(num(page.fold) / views) : 0,
    elements,
    binColumns: BIN_COLUMNS,
    binRowPx: BIN_ROW_PX,
    bins: bins.map((row) => ({ x: row.bin % BIN_COLUMNS, y: Math.floor(row.bin / BIN_COLUMNS), ...layers(row) })),
    scroll: scroll.map((row) => ({ depth: row.depth, reached: num(row.reached) })),
    snapshot: snapshot?.snapshot_session ? { sessionId: snapshot.snapshot_session, timestamp: num(snapshot.snapshot_at) } : null,
    sampled: false,
  };
}

/** The page with most views in the range, and its device class with most views. */
export async function busiestPage(db: Db, campaignId: string, range: Range, path?: string): Promise<{ path: string; device: ViewportClass } | null> {
  const [first, last] = days(range);
  let query = db
    .selectFrom('heatmap_pages')
    .select(['page', 'device', sum('views').as('views'), sum('clicks').as('clicks')])
    .where('campaign_id', '=', campaignId)
    .where('day', '>=', first)
    .where('day', '<=', last);
  if (path) query = query.where('page', '=', path);
  const row = await query.groupBy(['page', 'device']).orderBy('views', 'desc').orderBy('clicks', 'desc').orderBy('page').limit(1).executeTakeFirst();
  return row ? { path: row.page, device: row.device as ViewportClass } : null;
}

/** The sessions that clicked an element of a page (its stored contributions), most recent first. */
export async function elementClickers(
  db: Db,
  campaignId: string,
  element: { path: string; device: ViewportClass; selector: string },
  range: Range,
  matching?: (eb: ExpressionBuilder<Database, 'heatmap_feeds'>) => Expression<SqlBool>,
): Promise<HeatmapClicks> {
  const { path, device, selector } = element;
  const [first, last] = days(range);
  let query = db.selectFrom('heatmap_feeds');
  // Only the sessions a list filter picks (filtered.ts), when one is given.
  if (matching) query = query.where(matching);
  const rows = await query
    .select(['session_id', 'fed'])
    .where('campaign_id', '=', campaignId)
    .where('page', '=', path)
    .where('device', '=', device)
    .where('day', '>=', first)
    .where('day', '<=', last)
    // A cheap first cut; each row is checked exactly below (LIKE's "_" matches more).
    .where('fed', 'like', `%${JSON.stringify(selector).replace(/%/g, '_')}%`)
    .orderBy('day', 'desc')
    .limit(MAX_CLICKERS * 4)
    .execute();
  const sessions = new Map<string, HeatmapClicks['sessions'][number]>();
  for (const row of rows) {
    const element = readFed(row.fed).elements[selector];
    if (!element?.layers[0]) continue;
    const [clicks, rageClicks, deadClicks, errorClicks] = element.layers;
    const known = sessions.get(row.session_id);
    if (known)
      Object.assign(known, {
        at: Math.min(known.at, element.at),
        clicks: known.clicks + clicks,
        rageClicks: known.rageClicks + rageClicks,
        deadClicks: known.deadClicks + deadClicks,
        errorClicks: known.errorClicks + errorClicks,
      });
    else sessions.set(row.session_id, { sessionId: row.session_id, startedAt: 0, at: element.at, clicks, rageClicks, deadClicks, errorClicks });
  }
  const listed = [...sessions.values()].sort((a, b) => b.at - a.at).slice(0, MAX_CLICKERS);
  const startedAt = await recordingStarts(
    db,
    campaignId,
    listed.map((s) => s.sessionId),
  );
  for (const session of listed) session.startedAt = startedAt.get(session.sessionId) ?? session.at;
  return { sessions: listed };
}

/**
 * Where each session's replay clock starts: its earliest recorded event, on the visitor's clock as
 * the clicks' moments are (the session's started_at is the server's, and later by the first batch's wait).
 */
async function recordingStarts(db: Db, campaignId: string, sessionIds: string[]): Promise<Map<string, number>> {
  if (!sessionIds.length) return new Map();
  const rows = await db
    .selectFrom('chunks')
    .select(['session_id', sql<number>`min(first_ts)`.as('first')])
    .where('campaign_id', '=', campaignId)
    .where('session_id', 'in', sessionIds)
    .where('event_count', '>', 0)
    .groupBy('session_id')
    .execute();
  return new Map(rows.map((row) => [row.session_id, num(row.first)]));
}

/** The campaign's page patterns, in order. */
export async function pagePatterns(db: Db, campaignId: string): Promise<string[]> {
  const rows = await db.selectFrom('heatmap_patterns').select('pattern').where('campaign_id', '=', campaignId).orderBy('position').execute();
  return rows.map((r) => r.pattern);
}

/** Replaces the campaign's page patterns (they group what is aggregated from now on). */
export async function savePagePatterns(db: Db, campaignId: string, patterns: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('heatmap_patterns').where('campaign_id', '=', campaignId).execute();
    if (patterns.length)
      await trx
        .insertInto('heatmap_patterns')
        .values(patterns.map((pattern, position) => ({ campaign_id: campaignId, pattern, position })))
        .execute();
  });
}
