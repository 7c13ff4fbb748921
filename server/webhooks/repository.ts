import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../db/schema-webhooks.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';
import type { Delivery, Webhook } from '../../common/api/webhooks.js';
import { DELIVERIES_LISTED, type WebhookFormat } from '../../common/webhooks.js';

// The webhooks of a workspace and their deliveries, as stored (migration 0037).

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** How long a node holds a claimed delivery before another may take it (longer than an attempt with its redirects). */
export const CLAIM_LEASE_MS = 60_000;
/** How long a delivery is retried before it is given up. */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
/** The longest wait between two attempts. */
const LONGEST_WAIT_MS = 60 * 60 * 1000;

export const eventsOf = (row: Pick<WebhookRow, 'events'>): string[] => row.events.split(',').filter(Boolean);

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  workspace_id: row.workspace_id,
  campaign_id: row.campaign_id,
  url: row.url,
  events: eventsOf(row),
  format: row.format,
  created_at: Number(row.created_at),
});

interface NewWebhook {
  workspaceId: string;
  campaignId: string | null;
  url: string;
  events: readonly string[];
  format: WebhookFormat;
  sealedSecret: string;
  createdBy: string;
}

/** Adds a webhook unless the workspace already keeps `max`; its id, or null at the cap. */
export async function addWebhook(db: Executor, hook: NewWebhook, max: number, now = Date.now()): Promise<string | null> {
  const kept = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', hook.workspaceId)
    .executeTakeFirst();
  if (Number(kept?.n ?? 0) >= max) return null;
  const id = crypto.randomUUID();
  await db
    .insertInto('webhooks')
    .values({
      id,
      workspace_id: hook.workspaceId,
      campaign_id: hook.campaignId,
      url: hook.url,
      events: hook.events.join(','),
      format: hook.format,
      secret: hook.sealedSecret,
      created_by: hook.createdBy,
      created_at: now,
      // Sessions still going on when it was made count: their end comes later.
      scanned_until: now - SESSION_IDLE_MS,
    })
    .execute();
  return id;
}

export const findWebhook = (db: Executor, id: string) => db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const webhooksOf = (db: Executor, workspaceId: string) =>
  db.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();

export async function deleteWebhook(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function replaceSecret(db: Executor, id: string, sealedSecret: string): Promise<void> {
  await db.updateTable('webhooks').set({ secret: sealedSecret }).where('id', '=', id).execute();
}

interface Queued {
  webhookId: string;
  event: string;
  data: unknown;
  /** One delivery per webhook and key; none: always a new one (a test, a re-send). */
  dedupeKey?: string;
}

/** Queues a delivery, due at once; its id, or null when one with the same key was queued before. */
export async function enqueue(db: Executor, queued: Queued, now = Date.now()): Promise<string | null> {
  const id = crypto.randomUUID();
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      id,
      webhook_id: queued.webhookId,
      event: queued.event,
      body: JSON.stringify(queued.data),
      dedupe_key: queued.dedupeKey ?? null,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(['webhook_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
}

export const findDelivery = (db: Executor, webhookId: string, id: string) =>
  db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst();

/** The webhook's newest deliveries, as the log lists them. */
export async function deliveriesOf(db: Executor, webhookId: string): Promise<Delivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(DELIVERIES_LISTED)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: Number(row.attempts),
    response_code: row.response_code === null ? null : Number(row.response_code),
    at: Number(row.delivered_at ?? row.created_at),
    last_error: row.last_error,
  }));
}

/**
 * Takes up to `max` due deliveries for this node: each one's next attempt moved past a lease and
 * its attempts counted, in one statement whose WHERE is checked again on every row it changes,
 * so of two nodes claiming at once only one gets a delivery (PostgreSQL also skips rows another
 * claim holds locked). A node that dies holding one leaves it to be claimed again after the lease.
 */
export async function claimDue(db: Executor, max: number, now = Date.now()): Promise<DeliveryRow[]> {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(max);
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ next_attempt_at: now + CLAIM_LEASE_MS, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .returningAll()
    .execute();
}

/** How long a delivered or failed delivery stays in the log. */
export const DELIVERIES_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** Deletes deliveries delivered or given up more than DELIVERIES_KEPT_MS ago (housekeeping); pending ones stay. */
export async function sweepDeliveries(db: Executor, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('created_at', '<', now - DELIVERIES_KEPT_MS)
    .execute();
}

/** When the next attempt after `attempts` failed ones is due: base × 2^(attempts − 1), at most an hour apart; null after a day. */
export function nextAttemptAt(createdAt: number, attempts: number, now: number, baseMs: number): number | null {
  const wait = Math.min(LONGEST_WAIT_MS, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  const next = now + wait;
  return next - createdAt > RETRY_FOR_MS ? null : next;
}

/** What one attempt came to: delivered, due again later, or given up ('failed'). */
export async function settle(
  db: Executor,
  delivery: DeliveryRow,
  outcome: { delivered: boolean; responseCode: number | null; error: string | null },
  retryBaseMs: number,
  now = Date.now(),
): Promise<void> {
  const answered = { response_code: outcome.responseCode, last_error: outcome.error };
  const next = outcome.delivered ? null : nextAttemptAt(Number(delivery.created_at), Number(delivery.attempts), now, retryBaseMs);
  const change = outcome.delivered
    ? { ...answered, status: 'delivered', delivered_at: now }
    : next === null
      ? { ...answered, status: 'failed' }
      : { ...answered, next_attempt_at: next };
  await db.updateTable('webhook_deliveries').set(change).where('id', '=', delivery.id).where('status', '=', 'pending').execute();
}
