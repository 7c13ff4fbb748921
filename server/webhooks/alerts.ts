import type { Db } from '../db/index.js';
import type { StorageQuota } from '../campaigns/storage-quota.js';
import { endedBefore } from '../recordings/rules.js';
import { SESSION_RULES, NEAR } from './events.js';
import type { Alert } from '../../common/api/webhooks.js';

// Alerts in the app (issue 38, part 5): the events webhooks are sent for, as a campaign's list and
// the dashboard's badge. Read when asked, from the sessions that ended in the last day (the facts
// their rows hold) and the campaign's limits now: nothing is stored, so there is nothing to sweep.

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sessions an alert list reads (the newest ended ones with something to tell). */
export const ALERTS_LISTED = 50;

export async function campaignAlerts(
  sources: { db: Db; storageQuota: StorageQuota },
  campaign: { id: string; session_limit: number; session_count: number },
  now = Date.now(),
): Promise<Alert[]> {
  const sessions = await sources.db
    .selectFrom('sessions')
    .select(['id', 'last_activity_at', 'error_count', 'rage_click_count', 'dead_click_count', 'events'])
    .where('campaign_id', '=', campaign.id)
    .where('last_activity_at', '>=', now - DAY_MS)
    .where('last_activity_at', '<', endedBefore(now))
    .where('is_bot', '=', 0)
    .where((eb) => eb.or([eb('error_count', '>', 0), eb('rage_click_count', '>', 0), eb('dead_click_count', '>', 0), eb('events', 'is not', null)]))
    .orderBy('last_activity_at', 'desc')
    .limit(ALERTS_LISTED)
    .execute();
  const alerts: Alert[] = [];
  const [count, limit] = [Number(campaign.session_count), Number(campaign.session_limit)];
  if (limit > 0 && count >= NEAR * limit) alerts.push({ event: 'quota.near', session_id: null, at: now });
  const storage = await sources.storageQuota.use(campaign.id);
  if (storage && storage.usedBytes >= NEAR * storage.quotaBytes) alerts.push({ event: 'quota.near', session_id: null, at: now });
  for (const session of sessions) {
    for (const [event, rule] of Object.entries(SESSION_RULES)) {
      if (rule(session)) alerts.push({ event, session_id: session.id, at: Number(session.last_activity_at) });
    }
  }
  return alerts;
}
