// Seeding for the figures: an owner with real session cookies, campaigns, session rows inserted
// directly, and recorded events stored through the storage module (appendChunk).
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type Db } from '../../server/db/index.js';
import type { SessionsTable } from '../../server/db/schema.js';
import { rowSearchTerms } from '../../server/sessions/rows.js';
import { upsertUser } from '../../server/auth/users.js';
import { createSessionTokens, ACCESS_COOKIE, REFRESH_COOKIE } from '../../server/auth/tokens.js';
import { appendChunk } from '../../server/recordings/seed.js';
import type { ReplayEvent } from '../../common/api-types.js';
import type { BenchServer } from './server.js';
import { batchesOf } from './recording.js';
import { phase } from '../lib.js';

export interface Owner {
  userId: string;
  /** Cookie header value with the owner's access and refresh tokens. */
  cookie: string;
  access: string;
  refresh: string;
}

export async function createOwner(server: BenchServer, name = 'Bench Owner'): Promise<Owner> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@bench.test`;
  const userId = await upsertUser(server.db, { subject: `bench|${email}`, name, email, picture: null });
  const { access, refresh } = await createSessionTokens(server.db, server.app.ctx.keys, userId);
  return { userId, access, refresh, cookie: `${ACCESS_COOKIE}=${access}; ${REFRESH_COOKIE}=${refresh}` };
}

export async function createCampaign(db: Db, ownerId: string, domains: string, name = 'Bench campaign'): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  await db
    .insertInto('campaigns')
    .values({
      id,
      owner_id: ownerId,
      name,
      domains,
      session_limit: 0,
      start_date_time: now - 86_400_000,
      end_date_time: now + 30 * 86_400_000,
      created_at: now,
    })
    .execute();
  return id;
}

const languages = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP', 'nl-NL', 'it-IT'];
const timezones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Europe/Paris', 'America/Sao_Paulo'];
const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A plausible session row: the i-th visitor of a campaign, one minute apart, every 7th a bot. */
function peopleEvents(i: number): string | null {
  const events: Record<string, number> = {};
  if (i % 4 === 0) events.signup = 1;
  if (i % 50 === 0) events.checkout = 1 + (i % 3);
  if (i % 5000 === 0) events.refund = 1;
  return Object.keys(events).length ? JSON.stringify(events) : null;
}

export function sessionRowFor(campaignId: string, i: number, start = Date.UTC(2026, 0, 1)): SessionsTable {
  const row = factsRowFor(campaignId, i, start);
  return { ...row, search_terms: rowSearchTerms(row) };
}

function factsRowFor(campaignId: string, i: number, start: number): Omit<SessionsTable, 'search_terms'> {
  const bot = i % 7 === 0;
  const startedAt = start + i * 60_000;
  return {
    campaign_id: campaignId,
    id: `s${i.toString(36).padStart(8, '0')}${crypto.randomBytes(6).toString('hex')}`,
    remote_ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    ip_mode: 'full',
    country: 'DE',
    language: languages[i % languages.length],
    timezone: timezones[i % timezones.length],
    hardware_concurrency: 4 + (i % 3) * 4,
    webdriver: bot ? 1 : 0,
    cookies_enabled: 1,
    has_focus: 1,
    full_screen_enabled: 0,
    user_agent: agent,
    screen_width: 1920,
    screen_height: 1080,
    referrer: 'https://www.example.com/',
    // One session in four from a newsletter or ad campaign, as a marketed site's.
    utm_source: i % 4 === 0 ? ['newsletter', 'google'][(i >> 2) % 2] : null,
    utm_medium: i % 4 === 0 ? 'email' : null,
    utm_campaign: i % 4 === 0 ? `campaign-${i % 12}` : null,
    entry_url: `https://shop.example.com/products/${i % 500}`,
    browser: 'Chrome 131',
    os: 'Linux',
    device: 'desktop',
    is_bot: bot ? 1 : 0,
    bot_reason: bot ? 'webdriver' : null,
    has_human_input: bot ? 0 : 1,
    started_at: startedAt,
    last_activity_at: startedAt + 45_000 + (i % 600) * 1000,
    page_count: 1 + (i % 5),
    event_count: 300 + (i % 900),
    byte_count: 40_000 + (i % 900) * 90,
    batch_count: 4,
    closed_reason: null,
    // The derived facts, spread like a real site's: a few sessions with errors, rage or dead clicks.
    duration_ms: 45_000 + (i % 600) * 1000,
    active_ms: 20_000 + (i % 300) * 1000,
    click_count: i % 40,
    rage_click_count: i % 50 === 0 ? 1 : 0,
    dead_click_count: i % 20 === 0 ? 1 : 0,
    quick_back_count: i % 25 === 0 ? 1 : 0,
    excessive_scroll_count: i % 40 === 0 ? 1 : 0,
    error_count: i % 25 === 0 ? 1 + (i % 3) : 0,
    failed_request_count: i % 30 === 0 ? 1 : 0,
    pages: `/products/${i % 500}\n/cart`,
    exit_url: '/cart',
    facts_carry: null,
    country_code: 'DE',
    browser_name: 'chrome',
    // People, as a site that identifies one visitor in three (about 3 sessions each), tags some
    // and sends a signup event in one session of four, a checkout in one of 50, a refund in one of 5,000.
    user_id: i % 3 === 0 ? `customer-${i % 30_000}` : null,
    traits: i % 3 === 0 ? JSON.stringify({ plan: i % 10 === 0 ? 'pro' : 'free', seats: 1 + (i % 5) }) : null,
    tags: i % 6 === 0 ? JSON.stringify({ team: i % 12 === 0 ? 'blue' : 'red' }) : null,
    events: peopleEvents(i),
  };
}

/** Inserts `count` session rows straight into the sessions table, in multi-row statements. */
export async function insertSessions(db: Db, campaignId: string, count: number): Promise<SessionsTable[]> {
  const rows = Array.from({ length: count }, (_, i) => sessionRowFor(campaignId, i));
  await insertSessionRows(db, rows);
  return rows;
}

/**
 * Inserts session rows in multi-row statements, 20 statements to a transaction. PostgreSQL's
 * statistics are refreshed after the first statement, which commits alone, as autovacuum would
 * on a live server: the foreign-key checks of the sessions' triggers (session_pages,
 * session_events, session_traits) are planned against them, and planned on an empty table they
 * scan it, making the load quadratic. (Refreshed after a first transaction of 10,000 rows
 * instead, --quick's 10,000 sessions of the insights figure took 141 s to load on PostgreSQL;
 * after the first 500, 9 s.)
 */
export function insertSessionRows(db: Db, rows: SessionsTable[]): Promise<void> {
  return phase(`seeding ${rows.length} session rows (${isPostgres(db) ? 'PostgreSQL' : 'SQLite'})`, () => insertInStatements(db, rows));
}

async function insertInStatements(db: Db, rows: SessionsTable[]): Promise<void> {
  const perStatement = 500; // 47 columns × 500 rows stays under both databases' parameter limits
  for (let i = 0; i < rows.length;) {
    const end = Math.min(rows.length, i + (i === 0 ? perStatement : perStatement * 20));
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < end; j += perStatement) {
        await trx
          .insertInto('sessions')
          .values(rows.slice(j, Math.min(end, j + perStatement)))
          .execute();
      }
    });
    if (i === 0 && isPostgres(db)) await sql`analyze sessions`.execute(db);
    i = end;
  }
}

/** A recorded session: its row, then its events stored as the tracker's batches would be. */
export async function storeSession(db: Db, campaignId: string, events: ReplayEvent[], index = 0): Promise<string> {
  const row = sessionRowFor(campaignId, index);
  const batches = batchesOf(events);
  row.started_at = events[0].timestamp;
  row.last_activity_at = events[events.length - 1].timestamp;
  row.event_count = events.length;
  row.page_count = events.filter((e) => e.type === 4).length;
  await db.insertInto('sessions').values(row).execute();
  for (let seq = 0; seq < batches.length; seq++) {
    await appendChunk(db, { campaignId, sessionId: row.id, seq, events: batches[seq] });
  }
  const stored = await db
    .selectFrom('chunks')
    .select((eb) => eb.fn.sum<number | string>('byte_size').as('bytes'))
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', row.id)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('sessions')
    .set({ byte_count: Number(stored.bytes) })
    .where('campaign_id', '=', campaignId)
    .where('id', '=', row.id)
    .execute();
  return row.id;
}
