import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { AfterStored } from '../recordings/after-stored.js';
import type { StorageQuota } from '../campaigns/storage-quota.js';
import type { Executor } from '../db/executor.js';
import { endedBefore } from '../recordings/rules.js';
import { listSegments } from '../segments/repository.js';
import { filtered } from '../sessions/repository.js';
import { readListFilters } from '../sessions/filters.js';
import { enqueue, eventsOf, type WebhookRow } from './repository.js';
import type { WebhookEvent } from '../../common/webhooks.js';

// What a webhook hears of (docs/webhooks.md, "Events"). A session's events are decided once it
// has ended (recordings/rules.ts sessionEnded: no batch for SESSION_IDLE_MS), from the facts its
// row holds: errors, rage and dead clicks, custom events; and the saved segments it matches. Each
// webhook keeps how far it looked (scanned_until), and each delivery a key (event and session),
// so a scan run twice, or by two nodes, queues each delivery once. A campaign at 90 % of its
// session limit or storage quota is told once per limit.

/** What a scan reads: the database, the server's address, the storage quota, what reads settle first. */
export interface EventSources {
  db: Db;
  config: Config;
  storageQuota: StorageQuota;
  afterStored: AfterStored;
}

/** Ended sessions one scan of one webhook looks at (the next scan goes on from the last one). */
const SCAN_BATCH = 500;
/** Share of a limit at which quota.near is sent. */
export const NEAR = 0.9;

const SESSION_COLUMNS = [
  's.id',
  's.campaign_id',
  'c.name as campaign_name',
  's.started_at',
  's.last_activity_at',
  's.duration_ms',
  's.entry_url',
  's.browser',
  's.os',
  's.error_count',
  's.rage_click_count',
  's.dead_click_count',
  's.events',
] as const;

/** The campaigns a webhook covers: its own, or every campaign of its workspace. */
function campaignsOf(db: Executor, hook: WebhookRow) {
  let q = db.selectFrom('campaigns as c').where('c.workspace_id', '=', hook.workspace_id);
  if (hook.campaign_id) q = q.where('c.id', '=', hook.campaign_id);
  return q;
}

type EndedSession = Awaited<ReturnType<typeof endedSessions>>[number];

/** Sessions of the webhook's campaigns that ended since its last scan, oldest end first. */
function endedSessions(db: Executor, hook: WebhookRow, now: number) {
  return campaignsOf(db, hook)
    .innerJoin('sessions as s', 's.campaign_id', 'c.id')
    .select(SESSION_COLUMNS)
    .where('s.last_activity_at', '>=', Number(hook.scanned_until))
    .where('s.last_activity_at', '<', endedBefore(now))
    .where('s.is_bot', '=', 0)
    .orderBy('s.last_activity_at')
    .limit(SCAN_BATCH)
    .execute();
}

const customEvents = (session: Pick<EndedSession, 'events'>): Record<string, number> =>
  session.events ? (JSON.parse(session.events) as Record<string, number>) : {};

/** What a delivery of a session's event says of it. */
function sessionData(publicUrl: string, session: EndedSession, extra: Record<string, unknown> = {}) {
  return {
    session: {
      id: session.id,
      campaign_id: session.campaign_id,
      campaign_name: session.campaign_name,
      started_at: Number(session.started_at),
      ended_at: Number(session.last_activity_at),
      duration_ms: Number(session.duration_ms),
      entry_url: session.entry_url,
      browser: session.browser,
      os: session.os,
      error_count: Number(session.error_count),
      rage_click_count: Number(session.rage_click_count),
      dead_click_count: Number(session.dead_click_count),
      events: customEvents(session),
      replay_url: `${publicUrl}/campaign/${session.campaign_id}/session/${session.id}`,
    },
    ...extra,
  };
}

/** What a session's row says of what happened in it. */
export type SessionFacts = Pick<EndedSession, 'error_count' | 'rage_click_count' | 'dead_click_count' | 'events'>;

/** Whether the session's own facts make the event (webhooks, and the app's alerts: alerts.ts). */
export const SESSION_RULES: Partial<Record<WebhookEvent, (session: SessionFacts) => boolean>> = {
  'session.errors': (s) => Number(s.error_count) > 0,
  'session.frustration': (s) => Number(s.rage_click_count) + Number(s.dead_click_count) > 0,
  'session.event': (s) => Object.keys(customEvents(s)).length > 0,
};

/** The saved segments each of these sessions matches (by id: the segment's id and name). */
async function segmentMatches(ctx: EventSources, sessions: EndedSession[]): Promise<Map<string, { id: string; name: string }[]>> {
  const matches = new Map<string, { id: string; name: string }[]>();
  for (const campaignId of new Set(sessions.map((s) => s.campaign_id))) {
    const ids = sessions.filter((s) => s.campaign_id === campaignId).map((s) => s.id);
    for (const segment of await listSegments(ctx.db, campaignId)) {
      // A segment whose filters no longer hold (its funnel deleted) matches nothing, and stops no scan.
      const filters = await readListFilters(ctx, campaignId, segment.filters).catch(() => null);
      if (!filters) continue;
      const base = ctx.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).where('id', 'in', ids);
      for (const { id } of await filtered(base, filters).execute()) {
        matches.set(`${campaignId}\n${id}`, [...(matches.get(`${campaignId}\n${id}`) ?? []), { id: segment.id, name: segment.name }]);
      }
    }
  }
  return matches;
}

/** Queues the webhook's deliveries for the sessions that ended since its last scan; moves its scan on. */
async function scanSessions(ctx: EventSources, hook: WebhookRow, now: number): Promise<void> {
  const picked = eventsOf(hook);
  const sessions = await endedSessions(ctx.db, hook, now);
  const segments = picked.includes('segment.match') && sessions.length ? await segmentMatches(ctx, sessions) : new Map();
  const until = sessions.length === SCAN_BATCH ? Number(sessions[sessions.length - 1].last_activity_at) : endedBefore(now);
  await ctx.db.transaction().execute(async (trx) => {
    for (const session of sessions) {
      const key = (event: string) => `${event}:${session.campaign_id}:${session.id}`;
      for (const event of picked) {
        const rule = SESSION_RULES[event as WebhookEvent];
        if (rule?.(session)) await enqueue(trx, { webhookId: hook.id, event, data: sessionData(ctx.config.publicUrl, session), dedupeKey: key(event) });
      }
      const matched = segments.get(`${session.campaign_id}\n${session.id}`);
      if (matched) {
        const data = sessionData(ctx.config.publicUrl, session, { segments: matched });
        await enqueue(trx, { webhookId: hook.id, event: 'segment.match', data, dedupeKey: key('segment.match') });
      }
    }
    await trx.updateTable('webhooks').set({ scanned_until: until }).where('id', '=', hook.id).execute();
  });
}

/** Queues quota.near for each campaign of the webhook at 90 % of its session limit or storage quota (once per limit). */
async function scanQuotas(ctx: EventSources, hook: WebhookRow): Promise<void> {
  const campaigns = await campaignsOf(ctx.db, hook).select(['c.id', 'c.name', 'c.session_limit', 'c.session_count']).execute();
  for (const campaign of campaigns) {
    const near = async (limit: 'sessions' | 'storage', used: number, of: number) => {
      const data = { campaign: { id: campaign.id, name: campaign.name }, limit, used, of };
      await enqueue(ctx.db, { webhookId: hook.id, event: 'quota.near', data, dedupeKey: `quota.near:${limit}:${campaign.id}:${of}` });
    };
    const [sessions, limit] = [Number(campaign.session_count), Number(campaign.session_limit)];
    if (limit > 0 && sessions >= NEAR * limit) await near('sessions', sessions, limit);
    const storage = await ctx.storageQuota.use(campaign.id);
    if (storage && storage.usedBytes >= NEAR * storage.quotaBytes) await near('storage', storage.usedBytes, storage.quotaBytes);
  }
}

/** One scan of every webhook: what happened since the last one queued as deliveries (due at once). `now` is the clock the ended rule reads. */
export async function scanForEvents(ctx: EventSources, now = Date.now()): Promise<void> {
  const hooks = await ctx.db.selectFrom('webhooks').selectAll().where('disabled_at', 'is', null).execute();
  // One webhook's failure (its next scan tries again) does not keep the others from theirs.
  const failures: unknown[] = [];
  for (const hook of hooks) {
    const picked = eventsOf(hook);
    try {
      if (picked.some((event) => event !== 'quota.near')) await scanSessions(ctx, hook, now);
      if (picked.includes('quota.near')) await scanQuotas(ctx, hook);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw new AggregateError(failures, `${failures.length} of ${hooks.length} webhooks could not be scanned`);
}
