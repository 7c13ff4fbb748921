import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/index.js';
import type { Executor } from '../db/executor.js';

/** Stars one owner may set or clear a minute (a list's worth of clicks, never a script's loop). */
export const STAR_WRITES_PER_USER = 120;

/** The session_stars table: a starred session is kept past its campaign's retention. */

export async function starSession(db: Executor, campaignId: string, sessionId: string, now = Date.now()): Promise<void> {
  await db
    .insertInto('session_stars')
    .values({ campaign_id: campaignId, session_id: sessionId, starred_at: now })
    .onConflict((oc) => oc.columns(['campaign_id', 'session_id']).doNothing())
    .execute();
}

export async function unstarSession(db: Executor, campaignId: string, sessionId: string): Promise<void> {
  await db.deleteFrom('session_stars').where('campaign_id', '=', campaignId).where('session_id', '=', sessionId).execute();
}

export async function isStarred(db: Executor, campaignId: string, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('session_stars')
    .select('session_id')
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these sessions (one page of the list) are starred. */
export async function starredAmong(db: Executor, campaignId: string, sessionIds: string[]): Promise<Set<string>> {
  if (!sessionIds.length) return new Set();
  const rows = await db.selectFrom('session_stars').select('session_id').where('campaign_id', '=', campaignId).where('session_id', 'in', sessionIds).execute();
  return new Set(rows.map((row) => row.session_id));
}

/** Whether the sessions row is starred, as a condition on a query of `sessions`. */
export function hasStar(eb: ExpressionBuilder<Database, 'sessions'>): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('session_stars')
      .select(sql.lit(1).as('one'))
      .whereRef('session_stars.campaign_id', '=', 'sessions.campaign_id')
      .whereRef('session_stars.session_id', '=', 'sessions.id'),
  );
}
