import { sql, type Expression, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/index.js';
import type { SessionsTable } from '../db/schema.js';
import type { Session, SessionCounts } from '../../src/api/types.js';
import { badRequest } from '../http/errors.js';

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

export function toSession(row: SessionsTable): Session {
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
export async function pageSessions(db: Db, campaignId: string, query: SessionQuery): Promise<{ sessions: Session[]; nextCursor: string | null }> {
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

const countWhere = async (db: Db, campaignId: string, botsOnly: boolean): Promise<number> => {
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
export async function countSessions(db: Db, campaignId: string): Promise<SessionCounts> {
  const [total, bot] = await Promise.all([countWhere(db, campaignId, false), countWhere(db, campaignId, true)]);
  return { total, human: total - bot, bot };
}
