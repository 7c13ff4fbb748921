import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { Database } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { SessionsTable } from '../db/schema.js';
import type { Session, SessionCounts } from '../../common/api-types.js';
import { badRequest } from '../http/errors.js';
import { BOT_REASONS } from '../ingest/visitor.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';

/** The sessions table: every query on it, each taking the database or a transaction. */

export type SessionRow = Selectable<SessionsTable>;

export interface SessionQuery {
  cursor?: string;
  limit: number;
  search?: string;
  type?: 'human' | 'bot';
}

interface Cursor {
  startedAt: number;
  id: string;
}

/** The cursor is opaque to clients: the last row's (started_at, id), base64url JSON. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.startedAt, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') {
      return { startedAt: value[0] as number, id: value[1] };
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('Invalid cursor');
}

const like = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Case-insensitive substring match on id, IP and language, written the same way for both databases. */
function searchFilter(eb: ExpressionBuilder<Database, 'sessions'>, search: string): Expression<SqlBool> {
  const pattern = like(search);
  const column = (name: 'id' | 'remote_ip' | 'language') => sql<SqlBool>`lower(${sql.ref(name)}) like ${pattern} escape '\\'`;
  return eb.or([column('id'), column('remote_ip'), column('language')]);
}

export function toSession(row: SessionRow): Session {
  return {
    sessionId: row.id,
    remoteIpAddress: row.remote_ip,
    language: row.language,
    timezone: row.timezone,
    hardwareConcurrency: row.hardware_concurrency,
    webdriver: row.webdriver === 1,
    cookiesEnabled: row.cookies_enabled === 1,
    hasFocus: row.has_focus === 1,
    fullScreenEnabled: row.full_screen_enabled === 1,
    userAgent: row.user_agent,
    country: row.country,
    isBot: row.is_bot === 1,
    botReason: row.bot_reason,
    browser: row.browser,
    os: row.os,
    device: row.device,
    screenWidth: row.screen_width,
    screenHeight: row.screen_height,
    referrer: row.referrer,
    entryUrl: row.entry_url,
    startedAt: row.started_at,
    lastActivityAt: row.last_activity_at,
    durationMs: Math.max(0, row.last_activity_at - row.started_at),
    pageCount: row.page_count,
    eventCount: row.event_count,
    byteCount: row.byte_count,
  };
}

/**
 * One page of a campaign's sessions, newest first, by keyset on (started_at, id) so every page
 * costs the same on the (campaign_id, started_at, id) index however deep the caller pages.
 */
export async function pageSessions(db: Executor, campaignId: string, query: SessionQuery): Promise<{ sessions: Session[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .$if(after !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('started_at', '<', after!.startedAt),
          eb.and([eb('started_at', '=', after!.startedAt), eb('id', '<', after!.id)]),
        ]),
      ),
    )
    .$if(query.type !== undefined, (qb) => qb.where('is_bot', '=', query.type === 'bot' ? 1 : 0))
    .$if(Boolean(query.search), (qb) => qb.where((eb) => searchFilter(eb, query.search as string)))
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor({ startedAt: last.started_at, id: last.id }) : null;
  return { sessions: page.map(toSession), nextCursor };
}

const countWhere = async (db: Executor, campaignId: string, botsOnly: boolean): Promise<number> => {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('campaign_id', '=', campaignId)
    .$if(botsOnly, (qb) => qb.where('is_bot', '=', 1))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/**
 * Counts over the whole campaign, whatever the page's search or type filter. Two index-only
 * counts (bots are usually the few) cost less than one pass that reads every row's verdict.
 */
export async function countSessions(db: Executor, campaignId: string): Promise<SessionCounts> {
  const [total, bot] = await Promise.all([countWhere(db, campaignId, false), countWhere(db, campaignId, true)]);
  return { total, human: total - bot, bot };
}

export function findSession(db: Executor, campaignId: string, sessionId: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('campaign_id', '=', campaignId).where('id', '=', sessionId).executeTakeFirst();
}

/** What the per-session caps count, and whether the session was closed at one. */
export function sessionCounters(db: Executor, campaignId: string, sessionId: string) {
  return db
    .selectFrom('sessions')
    .select(['closed_reason', 'byte_count', 'event_count', 'batch_count'])
    .where('campaign_id', '=', campaignId)
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

/** Inserts a new session's row; false when another request inserted it first. */
export async function insertSessionIfAbsent(db: Executor, row: Insertable<SessionsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.columns(['campaign_id', 'id']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The caps one session may reach (config.limits). */
export interface SessionCaps {
  sessionMaxBytes: number;
  sessionMaxEvents: number;
  sessionMaxBatches: number;
}

/** A batch as the session's counters see it. */
export interface BatchCounts {
  eventCount: number;
  jsonBytes: number;
  pageLoads: number;
  humanInput: boolean;
}

/**
 * Raises the row's counters for a batch, within the caps: the row is locked by the UPDATE, so
 * concurrent batches of one session can never pass a cap together. Undefined when a cap is
 * reached (or the session is closed); else the facts the bot verdict is made from.
 */
export function countBatch(db: Executor, campaignId: string, sessionId: string, batch: BatchCounts, caps: SessionCaps, now: number) {
  return db
    .updateTable('sessions')
    .set((eb) => ({
      last_activity_at: now,
      event_count: eb('event_count', '+', batch.eventCount),
      byte_count: eb('byte_count', '+', batch.jsonBytes),
      batch_count: eb('batch_count', '+', 1),
      page_count: eb('page_count', '+', batch.pageLoads),
      ...(batch.humanInput ? { has_human_input: 1 } : {}),
    }))
    .where('campaign_id', '=', campaignId)
    .where('id', '=', sessionId)
    .where('closed_reason', 'is', null)
    .where((eb) => eb('byte_count', '<=', caps.sessionMaxBytes - batch.jsonBytes))
    .where((eb) => eb('event_count', '<=', caps.sessionMaxEvents - batch.eventCount))
    .where((eb) => eb('batch_count', '<', caps.sessionMaxBatches))
    .returning(['webdriver', 'user_agent', 'has_human_input', 'event_count', 'is_bot', 'bot_reason'])
    .executeTakeFirst();
}

export type CountedSession = NonNullable<Awaited<ReturnType<typeof countBatch>>>;

export async function setVerdict(db: Executor, campaignId: string, sessionId: string, verdict: { isBot: boolean; reason: string | null }): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ is_bot: verdict.isBot ? 1 : 0, bot_reason: verdict.reason })
    .where('campaign_id', '=', campaignId)
    .where('id', '=', sessionId)
    .execute();
}

/** Closes a session at a cap: no more batches are taken, and this is why. */
export async function setClosedReason(db: Executor, campaignId: string, sessionId: string, reason: string): Promise<void> {
  await db.updateTable('sessions').set({ closed_reason: reason }).where('campaign_id', '=', campaignId).where('id', '=', sessionId).execute();
}

/** How far back a sweep looks for sessions that ended without human input. */
const SWEEP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Sessions that ended (idle past the tracker's SESSION_IDLE_MS, so it has moved on) without any
 * human input are bots. Run after a campaign admits a new session (outside its transaction, so
 * the admission never waits on other rows) and before a list; the verdict index keeps it cheap.
 */
export async function markEndedSessionsWithoutInput(db: Executor, campaignId: string, now = Date.now()): Promise<void> {
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

const SESSION_DEFAULTS: Omit<SessionRow, 'campaign_id' | 'id' | 'started_at' | 'last_activity_at'> = {
  remote_ip: null,
  country: null,
  language: null,
  timezone: null,
  hardware_concurrency: null,
  webdriver: 0,
  cookies_enabled: 0,
  has_focus: 0,
  full_screen_enabled: 0,
  user_agent: null,
  screen_width: null,
  screen_height: null,
  referrer: null,
  entry_url: null,
  browser: null,
  os: null,
  device: null,
  is_bot: 0,
  bot_reason: null,
  has_human_input: 0,
  page_count: 0,
  event_count: 0,
  byte_count: 0,
  batch_count: 0,
  closed_reason: null,
};

export type NewSession = Pick<SessionRow, 'campaign_id' | 'id' | 'started_at'> & Partial<SessionRow>;

/** The full row a new session gets: unspecified fields take their schema defaults. */
export function sessionRow(session: NewSession): SessionRow {
  return { ...SESSION_DEFAULTS, last_activity_at: session.started_at, ...session };
}

/** Inserts a session row (tests and the bench seed sessions with it). */
export async function insertSession(db: Executor, session: NewSession): Promise<void> {
  await db.insertInto('sessions').values(sessionRow(session)).execute();
}
