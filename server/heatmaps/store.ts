// Writing heat: a flush's contributions added to the aggregates and to each session's stored
// contribution (heatmap_feeds), in one transaction; and the queued contributions of deleted
// sessions (heatmap_unfed, filled by a trigger whatever deleted them) taken off again.
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../db/index.js';
import { slices } from '../db/slices.js';
import { pageUnder } from '../../common/heatmaps.js';
import { addFed, emptyFed, readFed, type Fed, type Layers } from './fed.js';
import { inTurns } from '../in-turns.js';

/** The most elements one page, device class and day keeps (the rest still count on the page). */
export const MAX_PAGE_ELEMENTS = 200;
const ROWS_PER_STATEMENT = 200;

export interface Contribution {
  campaignId: string;
  sessionId: string;
  path: string;
  device: string;
  day: number;
  fed: Fed;
}

type Trx = Transaction<Database>;
type Key = { campaign_id: string; page: string; device: string; day: number };
const keyOf = (k: Key) => `${k.campaign_id}\n${k.page}\n${k.device}\n${k.day}`;
const layerColumns = (l: Layers) => ({ clicks: l[0], rage_clicks: l[1], dead_clicks: l[2], error_clicks: l[3] });
const LAYER_COLUMNS = ['clicks', 'rage_clicks', 'dead_clicks', 'error_clicks'] as const;
const KEY = ['campaign_id', 'page', 'device', 'day'] as const;

/**
 * Rows (one per key: PostgreSQL refuses a statement that meets one row twice) inserted in slices,
 * each added onto the row it meets: `add` columns summed, `extra` columns set as given.
 */
async function upsert<T extends 'heatmap_pages' | 'heatmap_elements' | 'heatmap_bins' | 'heatmap_scroll' | 'heatmap_feeds'>(
  trx: Trx,
  table: T,
  rows: Record<string, unknown>[],
  conflict: string[],
  add: string[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  for (const slice of slices(rows, ROWS_PER_STATEMENT)) {
    await trx
      .insertInto(table)
      .values(slice as never)
      .onConflict((oc) =>
        oc
          .columns(conflict as never)
          .doUpdateSet(
            Object.fromEntries([...add.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + excluded.${sql.ref(c)}`]), ...Object.entries(extra)]) as never,
          ),
      )
      .execute();
  }
}

/** Patterns of the campaigns, in their order. */
async function patternsOf(trx: Db, campaignIds: string[]): Promise<Map<string, string[]>> {
  const rows = await trx
    .selectFrom('heatmap_patterns')
    .select(['campaign_id', 'pattern'])
    .where('campaign_id', 'in', campaignIds)
    .orderBy('position')
    .execute();
  const patterns = new Map<string, string[]>();
  for (const row of rows) patterns.set(row.campaign_id, [...(patterns.get(row.campaign_id) ?? []), row.pattern]);
  return patterns;
}

/** A page's deltas in one flush, summed: what its aggregate rows gain. */
interface PageSum {
  key: Key;
  fed: Fed;
  /** Sessions new to the page, and (index 1–3) sessions whose first rage, dead or error click on it this is. */
  sessions: number;
  newlyIn: Layers;
  snapshotAt: number;
  snapshotSession: string | null;
}

const newPageSum = (key: Key): PageSum => ({ key, fed: emptyFed(), sessions: 0, newlyIn: [0, 0, 0, 0], snapshotAt: 0, snapshotSession: null });

/** Whether a delta's element or bin is credited: already in the stored contribution, or new clicks while under the cap. */
const credited = (stored: Record<string, unknown>, name: string, clicks: number, room: () => boolean) => name in stored || (clicks > 0 && room());

/** A foreign key violation (PostgreSQL, SQLite): a session deleted while the flush ran. */
const FOREIGN_KEY_VIOLATIONS = new Set(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY']);

/** Adds a flush's contributions: the sessions still there only (one deleted since feeds nothing). */
export async function storeContributions(db: Db, contributions: Contribution[]): Promise<void> {
  try {
    // storeOnce works on copies, so a second try starts from the same contributions.
    await storeOnce(db, contributions);
  } catch (error) {
    if (!FOREIGN_KEY_VIOLATIONS.has(String((error as { code?: string }).code))) throw error;
    await storeOnce(db, contributions);
  }
}

async function storeOnce(db: Db, contributions: Contribution[]): Promise<void> {
  if (!contributions.length) return;
  const campaigns = [...new Set(contributions.map((c) => c.campaignId))];
  const patterns = await patternsOf(db, campaigns);
  const pagesOf = new Map(campaigns.map((id) => [id, pageUnder(patterns.get(id) ?? [])]));
  // Same session, page, device and day (two paths under one pattern): one contribution.
  const merged = new Map<string, Contribution & { page: string }>();
  // A flush may judge 50,000 paths, each by up to 50 patterns (some µs each at the caps): in turns.
  await inTurns(contributions, (c) => {
    const page = pagesOf.get(c.campaignId)!(c.path);
    const id = `${c.campaignId}\n${c.sessionId}\n${page}\n${c.device}\n${c.day}`;
    const into = merged.get(id);
    if (into) addFed(into.fed, c.fed);
    else merged.set(id, { ...c, page, fed: addFed(emptyFed(), c.fed) });
  });
  const list = [...merged.values()];
  const alive = new Set<string>();
  const stored = new Map<string, Fed>();
  for (const campaignId of campaigns) {
    const ids = [...new Set(list.filter((c) => c.campaignId === campaignId).map((c) => c.sessionId))];
    // The sessions still there, with what each fed before, in one read before the writes, unlocked
    // (ingest updates these rows all the time): a session deleted after this read makes the
    // insert fail its foreign key, and the flush runs again.
    const rows = await db
      .selectFrom('sessions as s')
      .leftJoin('heatmap_feeds as f', (join) => join.onRef('f.campaign_id', '=', 's.campaign_id').onRef('f.session_id', '=', 's.id'))
      .select(['s.id', 'f.page', 'f.device', 'f.day', 'f.fed'])
      .where('s.campaign_id', '=', campaignId)
      .where('s.id', 'in', ids)
      .execute();
    for (const row of rows) {
      alive.add(`${campaignId}\n${row.id}`);
      if (row.fed !== null) stored.set(`${campaignId}\n${row.id}\n${row.page}\n${row.device}\n${row.day}`, readFed(row.fed));
    }
  }
  const live = list.filter((c) => alive.has(`${c.campaignId}\n${c.sessionId}`));
  if (!live.length) return;
  // Elements each page already keeps, for the cap.
  const kept = new Map<string, Set<string>>();
  for (const campaignId of campaigns) {
    const mine = live.filter((c) => c.campaignId === campaignId);
    const rows = await db
      .selectFrom('heatmap_elements')
      .select(['campaign_id', 'page', 'device', 'day', 'selector'])
      .where('campaign_id', '=', campaignId)
      .where('page', 'in', [...new Set(mine.map((c) => c.page))])
      .where('day', 'in', [...new Set(mine.map((c) => c.day))])
      .execute();
    for (const row of rows) (kept.get(keyOf(row)) ?? kept.set(keyOf(row), new Set()).get(keyOf(row)))?.add(row.selector);
  }
  // Each page's deltas summed as they come (addFed): a flush writes one row per aggregate key.
  const sums = new Map<string, PageSum>();
  const feeds: Record<string, unknown>[] = [];
  for (const c of live) {
    const key: Key = { campaign_id: c.campaignId, page: c.page, device: c.device, day: c.day };
    const before = stored.get(`${c.campaignId}\n${c.sessionId}\n${c.page}\n${c.device}\n${c.day}`);
    const old = before ?? emptyFed();
    const delta = c.fed;
    const selectors = kept.get(keyOf(key)) ?? kept.set(keyOf(key), new Set()).get(keyOf(key))!;
    for (const [selector, element] of Object.entries(delta.elements)) {
      if (!credited(old.elements, selector, element.layers[0], () => selectors.has(selector) || selectors.size < MAX_PAGE_ELEMENTS))
        delete delta.elements[selector];
      else selectors.add(selector);
    }
    for (const [bin, layers] of Object.entries(delta.bins))
      if (!credited(old.bins, bin, layers[0], () => Object.keys(old.bins).length < 300)) delete delta.bins[bin];
    const had = old.layers.slice();
    // `old` was read (or made) for this flush alone: the session's contribution grows in place.
    const after = addFed(old, delta);
    const sum = sums.get(keyOf(key)) ?? sums.set(keyOf(key), newPageSum(key)).get(keyOf(key))!;
    addFed(sum.fed, delta);
    if (!before) sum.sessions++;
    for (let i = 1; i < 4; i++) if (had[i] === 0 && after.layers[i] > 0) sum.newlyIn[i]++;
    if (after.lastAt > sum.snapshotAt || sum.snapshotSession === null) Object.assign(sum, { snapshotAt: after.lastAt, snapshotSession: c.sessionId });
    feeds.push({ ...key, session_id: c.sessionId, fed: JSON.stringify(after), last_at: after.lastAt });
  }
  const pages: Record<string, unknown>[] = [];
  const elements: Record<string, unknown>[] = [];
  const bins: Record<string, unknown>[] = [];
  const scroll: Record<string, unknown>[] = [];
  for (const { key, fed, sessions, newlyIn, snapshotAt, snapshotSession } of sums.values()) {
    pages.push({
      ...key,
      views: fed.views,
      sessions,
      ...layerColumns(fed.layers),
      rage_sessions: newlyIn[1],
      dead_sessions: newlyIn[2],
      error_sessions: newlyIn[3],
      fold_sum: fed.fold,
      snapshot_session: snapshotSession,
      snapshot_at: snapshotAt || null,
    });
    for (const [selector, e] of Object.entries(fed.elements))
      elements.push({ ...key, selector, text: e.text, ...layerColumns(e.layers), fx_sum: e.fx, fy_sum: e.fy });
    for (const [bin, layers] of Object.entries(fed.bins)) bins.push({ ...key, bin: Number(bin), ...layerColumns(layers) });
    fed.scroll.forEach((reached, i) => reached && scroll.push({ ...key, depth: i * 10, reached }));
  }
  // Only the writes hold the transaction: on SQLite it holds the one connection ingest needs too.
  await db.transaction().execute(async (trx) => {
    const newer = sql`excluded.snapshot_at > coalesce(heatmap_pages.snapshot_at, 0)`;
    await upsert(
      trx,
      'heatmap_pages',
      pages,
      [...KEY],
      ['views', 'sessions', ...LAYER_COLUMNS, 'rage_sessions', 'dead_sessions', 'error_sessions', 'fold_sum'],
      {
        snapshot_session: sql`case when ${newer} then excluded.snapshot_session else heatmap_pages.snapshot_session end`,
        snapshot_at: sql`case when ${newer} then excluded.snapshot_at else heatmap_pages.snapshot_at end`,
      },
    );
    // A delta that only carries a later verdict has no text: the stored one stays.
    await upsert(trx, 'heatmap_elements', elements, [...KEY, 'selector'], [...LAYER_COLUMNS, 'fx_sum', 'fy_sum'], {
      text: sql`coalesce(nullif(excluded.text, ''), heatmap_elements.text)`,
    });
    await upsert(trx, 'heatmap_bins', bins, [...KEY, 'bin'], [...LAYER_COLUMNS]);
    await upsert(trx, 'heatmap_scroll', scroll, [...KEY, 'depth'], ['reached']);
    await upsert(trx, 'heatmap_feeds', feeds, ['campaign_id', 'session_id', 'page', 'device', 'day'], [], {
      fed: sql`excluded.fed`,
      last_at: sql`excluded.last_at`,
    });
  });
}
