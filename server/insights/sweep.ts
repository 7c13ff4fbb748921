import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../db/executor.js';
import { markEndedSessionsWithoutInput, SWEEP_WINDOW_MS } from '../sessions/repository.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';

/**
 * The bot sweep (sessions that ended with no human input become bots), run only when a session
 * awaits it. The sweep's own UPDATE walks the sessions idle for 30 minutes, on SQLite by the
 * last-activity index: every old session of the campaign, each call. This check reads the
 * campaign's last day by start time (the `+` keeps SQLite off the last-activity index).
 */
export async function sweepIfDue(db: Executor, campaignId: string, now = Date.now()): Promise<void> {
  const due = await db
    .selectFrom('sessions')
    .select('id')
    .where('campaign_id', '=', campaignId)
    .where('started_at', '>', now - SWEEP_WINDOW_MS)
    .where('is_bot', '=', 0)
    .where('has_human_input', '=', 0)
    .where(sql<SqlBool>`+last_activity_at < ${now - SESSION_IDLE_MS}`)
    .limit(1)
    .executeTakeFirst();
  if (due) await markEndedSessionsWithoutInput(db, campaignId, now);
}
