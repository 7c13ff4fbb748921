import crypto from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { FunnelsTable } from '../db/schema-insights.js';
import type { Funnel, FunnelChanges } from '../../common/api/funnels.js';
import { DEFAULT_FUNNEL_WITHIN_MS, needsVisits, tally, type FunnelStep, type Progress, type Tally, type Visit } from '../../common/funnels.js';
import type { SlicedRead } from '../db/sliced-read.js';
import { pageOrder, progress, visitOrder } from './progress.js';
import { pathMatches, visitMatches } from './match.js';

/** The funnels table: a campaign's funnels, and a funnel's result over its sessions. */

const toFunnel = (row: Selectable<FunnelsTable>): Funnel => ({
  id: row.id,
  name: row.name,
  steps: JSON.parse(row.steps) as FunnelStep[],
  withinMs: Number(row.within_ms),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

export async function listFunnels(db: Executor, campaignId: string): Promise<Funnel[]> {
  const rows = await db.selectFrom('funnels').selectAll().where('campaign_id', '=', campaignId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toFunnel);
}

export async function findFunnel(db: Executor, campaignId: string, funnelId: string): Promise<Funnel | undefined> {
  const row = await db.selectFrom('funnels').selectAll().where('campaign_id', '=', campaignId).where('id', '=', funnelId).executeTakeFirst();
  return row && toFunnel(row);
}

/** Adds a funnel unless the campaign has `max` already (counted under the campaign row's lock, as segments are). */
export async function addFunnel(
  db: Db,
  campaignId: string,
  funnel: { name: string; steps: FunnelStep[]; withinMs?: number },
  max: number,
  now = Date.now(),
): Promise<Funnel | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('campaigns')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', campaignId)
      .execute();
    const { n } = await trx
      .selectFrom('funnels')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('campaign_id', '=', campaignId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return undefined;
    const row = {
      ...{ id: crypto.randomUUID(), campaign_id: campaignId, name: funnel.name, steps: JSON.stringify(funnel.steps) },
      ...{ within_ms: funnel.withinMs ?? DEFAULT_FUNNEL_WITHIN_MS, created_at: now, updated_at: now },
    };
    await trx.insertInto('funnels').values(row).execute();
    return toFunnel(row);
  });
}

export async function changeFunnel(db: Executor, campaignId: string, funnelId: string, changes: FunnelChanges, now = Date.now()): Promise<Funnel | undefined> {
  const row = await db
    .updateTable('funnels')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.steps ? { steps: JSON.stringify(changes.steps) } : {}),
      ...(changes.withinMs !== undefined ? { within_ms: changes.withinMs } : {}),
      updated_at: now,
    })
    .where('campaign_id', '=', campaignId)
    .where('id', '=', funnelId)
    .returningAll()
    .executeTakeFirst();
  // Its kept days counted other steps or another window.
  if (row && (changes.steps || changes.withinMs !== undefined)) await db.deleteFrom('funnel_days').where('funnel_id', '=', funnelId).execute();
  return row && toFunnel(row);
}

export async function deleteFunnel(db: Executor, campaignId: string, funnelId: string): Promise<boolean> {
  const result = await db.deleteFrom('funnels').where('campaign_id', '=', campaignId).where('id', '=', funnelId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The funnel's tally of the campaign's sessions started in [from, to): the visits of those
 * sessions that are one of the steps (one query, visits that are no step left out, as they
 * cannot change a session's progress), each session's progress by progress.ts.
 */
export async function tallyOf(read: SlicedRead, campaignId: string, funnel: Funnel, from: number, to: number): Promise<Tally> {
  const visits = needsVisits(funnel.steps)
    ? await stepVisits(read, campaignId, funnel.steps, from, to)
    : await pageVisits(read, campaignId, funnel.steps, from, to);
  // Thousands of sessions' progress: in slices, so other requests are answered meanwhile.
  const progresses: Progress[] = [];
  await read.each(visits.values(), (v) => progresses.push(progress(v, funnel.steps, funnel.withinMs)));
  return tally(progresses, funnel.steps.length);
}

/** Rows by session, each session's in order (sorted here: the query leaves the order to the database), in slices. */
async function bySession<R extends { session_id: string }>(
  read: SlicedRead,
  rows: R[],
  order: (a: R, b: R) => number,
  visit: (row: R) => Visit,
): Promise<Map<string, Visit[]>> {
  const sessions = new Map<string, R[]>();
  await read.each(rows, (row) => {
    const found = sessions.get(row.session_id);
    if (found) found.push(row);
    else sessions.set(row.session_id, [row]);
  });
  const visits = new Map<string, Visit[]>();
  await read.each(sessions, ([id, list]) => visits.set(id, list.sort(order).map(visit)));
  return visits;
}

/** Page-only funnels: each session's page visits that are a step, in order (session_pages). */
async function pageVisits(read: SlicedRead, campaignId: string, steps: FunnelStep[], from: number, to: number): Promise<Map<string, Visit[]>> {
  const { db } = read;
  const patterns = steps.flatMap((step) => ('page' in step ? [step.page] : []));
  const rows = await db
    .selectFrom('sessions as s')
    .innerJoin('session_pages as p', (join) => join.onRef('p.campaign_id', '=', 's.campaign_id').onRef('p.session_id', '=', 's.id'))
    .select(['p.session_id', 'p.position', 'p.path', 'p.at'])
    .where('s.campaign_id', '=', campaignId)
    .where('s.started_at', '>=', from)
    .where('s.started_at', '<', to)
    .where((eb) => eb.or(patterns.map((pattern) => pathMatches(db, sql.ref('p.path'), pattern))))
    .execute();
  return bySession(read, rows, pageOrder, (row) => ({ kind: 'page', value: row.path, at: Number(row.at) }));
}

/** Funnels with a click or event step: each session's pages, clicks and events that are a step, in order (session_visits). */
async function stepVisits(read: SlicedRead, campaignId: string, steps: FunnelStep[], from: number, to: number): Promise<Map<string, Visit[]>> {
  const { db } = read;
  const rows = await db
    .selectFrom('sessions as s')
    .innerJoin('session_visits as v', (join) => join.onRef('v.campaign_id', '=', 's.campaign_id').onRef('v.session_id', '=', 's.id'))
    .select(['v.session_id', 'v.seq', 'v.kind', 'v.value', 'v.text', 'v.at'])
    .where('s.campaign_id', '=', campaignId)
    .where('s.started_at', '>=', from)
    .where('s.started_at', '<', to)
    .where((eb) => eb.or(steps.map((step) => visitMatches(db, sql.raw('v'), step))))
    .execute();
  return bySession(read, rows, visitOrder, (row) => ({ kind: row.kind, value: row.value, text: row.text, at: Number(row.at) }));
}
