import type { Transaction } from 'kysely';
import type { Database, Db } from '../db/index.js';
import type { Selectable } from 'kysely';
import type { CampaignsTable } from '../db/schema.js';

type Campaign = Selectable<CampaignsTable>;
import { HttpError, badRequest } from '../http/errors.js';
import { appendChunk, sessionRow } from '../storage/chunks.js';
import type { IngestBatch } from './batch.js';
import { BOT_REASONS, botVerdict, countryOf, hasHumanInput, pageLoads, softwareOf } from './visitor.js';
import { SESSION_IDLE_MS } from '../../tracker/src/limits.js';

export const LIMIT_REACHED = 'Session limit reached for this campaign';
export const INFO_REQUIRED = 'The first batch of a session must carry its info';

type Trx = Transaction<Database>;

/**
 * Admits a new session: the row is inserted and the campaign's counter raised in one
 * conditional UPDATE, so concurrent first batches can never admit more than the limit.
 * When another request created the same session first, there is nothing left to admit.
 */
async function admitSession(trx: Trx, campaign: Campaign, batch: IngestBatch, ip: string, now: number): Promise<void> {
  const info = batch.info;
  if (!info) throw badRequest(INFO_REQUIRED);
  const timestamps = batch.events.map((e) => e.timestamp);
  const span = Math.max(0, Math.max(...timestamps) - Math.min(...timestamps));
  const software = softwareOf(info.userAgent);
  const row = sessionRow({
    campaign_id: campaign.id,
    id: batch.sessionId,
    // The server's clock: the batch left the page just after its last event.
    started_at: now - span,
    last_activity_at: now,
    remote_ip: ip,
    country: countryOf(ip),
    language: info.language || null,
    timezone: info.timezone || null,
    hardware_concurrency: info.hardwareConcurrency,
    webdriver: info.webdriver ? 1 : 0,
    cookies_enabled: info.cookiesEnabled ? 1 : 0,
    has_focus: info.hasFocus ? 1 : 0,
    full_screen_enabled: info.fullScreenEnabled ? 1 : 0,
    user_agent: info.userAgent || null,
    screen_width: info.screenWidth ?? null,
    screen_height: info.screenHeight ?? null,
    referrer: info.referrer || null,
    entry_url: info.url || null,
    ...software,
  });
  const inserted = await trx
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.columns(['campaign_id', 'id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return;
  const admitted = await trx
    .updateTable('campaigns')
    .set((eb) => ({ session_count: eb('session_count', '+', 1) }))
    .where('id', '=', campaign.id)
    .where((eb) => eb.or([eb('session_limit', '=', 0), eb('session_count', '<', eb.ref('session_limit'))]))
    .executeTakeFirst();
  // Throwing rolls the session row back with the transaction: a refused session leaves nothing.
  if (Number(admitted.numUpdatedRows) !== 1) throw new HttpError(403, LIMIT_REACHED);
}

/** How far back a sweep looks for sessions that ended without human input. */
const SWEEP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Sessions that ended (30 idle minutes, so the tracker has moved on) without any human input
 * are bots. Run after a campaign admits a new session (outside its transaction, so the
 * admission never waits on other rows); the verdict index keeps it cheap.
 */
export async function markEndedSessionsWithoutInput(db: Db | Trx, campaignId: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ is_bot: 1, bot_reason: BOT_REASONS.noInput })
    .where('campaign_id', '=', campaignId)
    .where('is_bot', '=', 0)
    .where('started_at', '>', now - SWEEP_WINDOW_MS)
    .where('has_human_input', '=', 0)
    .where('last_activity_at', '<', now - SESSION_IDLE_MS)
    .execute();
}

/** Keeps the row's list figures current, so listing sessions never reads chunks. */
async function updateSession(trx: Trx, campaignId: string, batch: IngestBatch, now: number): Promise<void> {
  const human = hasHumanInput(batch.events);
  const row = await trx
    .updateTable('sessions')
    .set((eb) => ({
      last_activity_at: now,
      event_count: eb('event_count', '+', batch.events.length),
      byte_count: eb('byte_count', '+', batch.bytes),
      page_count: eb('page_count', '+', pageLoads(batch.events)),
      ...(human ? { has_human_input: 1 } : {}),
    }))
    .where('campaign_id', '=', campaignId)
    .where('id', '=', batch.sessionId)
    .returning(['webdriver', 'user_agent', 'has_human_input', 'event_count', 'is_bot', 'bot_reason'])
    .executeTakeFirstOrThrow();
  const verdict = botVerdict({
    webdriver: row.webdriver === 1,
    userAgent: row.user_agent,
    hasHumanInput: row.has_human_input === 1,
    eventCount: row.event_count,
  });
  if ((verdict.isBot ? 1 : 0) !== row.is_bot || verdict.reason !== row.bot_reason) {
    await trx
      .updateTable('sessions')
      .set({ is_bot: verdict.isBot ? 1 : 0, bot_reason: verdict.reason })
      .where('campaign_id', '=', campaignId)
      .where('id', '=', batch.sessionId)
      .execute();
  }
}

/**
 * Stores one checked batch in a single transaction: admit the session if it is new, append
 * the chunk (a retried (session, seq) is ignored), update the session row. Any refusal rolls
 * everything back. Returns whether the batch was newly stored.
 */
export async function storeBatch(db: Db, campaign: Campaign, batch: IngestBatch, ip: string, now = Date.now()): Promise<{ stored: boolean; admitted: boolean }> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('sessions')
      .select('id')
      .where('campaign_id', '=', campaign.id)
      .where('id', '=', batch.sessionId)
      .executeTakeFirst();
    if (!existing) await admitSession(trx, campaign, batch, ip, now);
    const stored = await appendChunk(trx, { campaignId: campaign.id, sessionId: batch.sessionId, seq: batch.seq, events: batch.events });
    if (stored) await updateSession(trx, campaign.id, batch, now);
    return { stored, admitted: !existing };
  });
}
