import { sql, type SqlBool } from 'kysely';
import type { Executor } from '../db/executor.js';
import { BOT_REASONS, endedBefore } from './rules.js';

/** How far back a sweep looks for sessions that ended without human input. */
export const SWEEP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Sessions that ended (rules.ts sessionEnded) without any human input are bots: botVerdict's
 * rule for them, in SQL (tests/integration/bot-verdict.test.ts shows the two agree). Run before a
 * list or the insights read the campaign (recordings/after-stored.ts flushFor 'verdicts'), and for
 * every campaign by the housekeeping job (sweepAllEndedSessions). The UPDATE runs only when a
 * session awaits it: on SQLite it walks the ended sessions by the last-activity index (every old session of the campaign, ~30 ms at 100,000),
 * while the check reads the campaign's last day by start time (the `+` keeps SQLite off that index).
 */
export async function markEndedSessionsWithoutInput(db: Executor, campaignId: string, now = Date.now()): Promise<void> {
  const awaiting = await db
    .selectFrom('sessions')
    .select('id')
    .where('campaign_id', '=', campaignId)
    .where('started_at', '>', now - SWEEP_WINDOW_MS)
    .where('is_bot', '=', 0)
    .where('has_human_input', '=', 0)
    .where(sql<SqlBool>`+last_activity_at < ${endedBefore(now)}`)
    .limit(1)
    .executeTakeFirst();
  if (!awaiting) return;
  await db
    .updateTable('sessions')
    .set({ is_bot: 1, bot_reason: BOT_REASONS.noInput })
    .where('campaign_id', '=', campaignId)
    .where('is_bot', '=', 0)
    .where('started_at', '>', now - SWEEP_WINDOW_MS)
    .where('has_human_input', '=', 0)
    .where('last_activity_at', '<', endedBefore(now))
    .execute();
}

/** Every campaign with sessions awaiting a verdict, swept (the housekeeping job's share; never on ingest's path). */
export async function sweepAllEndedSessions(db: Executor, now = Date.now()): Promise<void> {
  const campaigns = await db
    .selectFrom('sessions')
    .select('campaign_id')
    .distinct()
    .where('started_at', '>', now - SWEEP_WINDOW_MS)
    .where('is_bot', '=', 0)
    .where('has_human_input', '=', 0)
    .execute();
  for (const { campaign_id } of campaigns) await markEndedSessionsWithoutInput(db, campaign_id, now);
}
