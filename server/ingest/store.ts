import { gzipSync } from 'node:zlib';
import { EventType } from '@rrweb/types';
import type { Selectable } from 'kysely';
import type { Db } from '../db/index.js';
import type { Executor, Trx } from '../db/executor.js';
import type { CampaignsTable } from '../db/schema.js';
import { HttpError, badRequest } from '../http/errors.js';
import { CHUNK_COLUMN_TYPES, chunkRow, insertChunk, type PackedChunk } from '../storage/chunks.js';
import { isPostgres } from '../db/index.js';
import type { GroupCommitter } from './group-commit.js';
import type { PackedBatch } from './pack-batch.js';
import type { SessionInfo } from '../../common/api-types.js';
import { botVerdict, browserName, countryCodeOf, countryName, softwareOf, storedIp } from './visitor.js';
import { foldFacts } from '../../common/session-facts.js';
import { MAX_SEQ } from '../../common/limits.js';
import { NOTE_TAG } from '../../common/captured.js';
import { admitOneSession } from '../campaigns/repository.js';
import { countBatch, countBatchQuery, factValues, factsOfRow, setFacts, insertSessionIfAbsent, sessionRow, sessionCounters, setClosedReason, setVerdict, type CountedSession, type FactsAsOf, type SessionCaps, type SessionRow, type SessionState } from '../sessions/repository.js';

type Campaign = Selectable<CampaignsTable>;

export const LIMIT_REACHED = 'Session limit reached for this campaign';
export const INFO_REQUIRED = 'The first batch of a session must carry its info';

/** A new session's row as its first batch finds it, before it is counted. */
function newSessionRow(campaign: Campaign, batch: PackedBatch, info: SessionInfo, ip: string, now: number): SessionRow {
  const span = batch.lastTs - batch.firstTs;
  const software = softwareOf(info.userAgent);
  // The country comes from the full address; only what the campaign allows is stored.
  const countryCode = countryCodeOf(ip);
  const row = sessionRow({
    campaign_id: campaign.id,
    id: batch.sessionId,
    // The server's clock: the batch left the page just after its last event.
    started_at: now - span,
    last_activity_at: now,
    remote_ip: storedIp(ip, campaign.ip_mode),
    ip_mode: campaign.ip_mode,
    country: countryCode ? countryName(countryCode) : null,
    country_code: countryCode,
    browser_name: browserName(software.browser),
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
  return row;
}

/**
 * Starts a new session: its row is inserted (storeIn admits it, last). Resolves to the row as
 * inserted; undefined when another request created the session first (nothing to admit).
 */
async function startSession(trx: Trx, campaign: Campaign, batch: PackedBatch, info: SessionInfo, ip: string, now: number): Promise<SessionState | undefined> {
  const row = newSessionRow(campaign, batch, info, ip, now);
  return (await insertSessionIfAbsent(trx, row)) ? row : undefined;
}

/**
 * A new session's row as its first batch leaves it: counted as countBatch counts, its facts
 * folded and its verdict made. Ingest's short way inserts it whole (ingest/new-sessions.ts).
 */
export function firstBatchRow(campaign: Campaign, batch: PackedBatch, info: SessionInfo, ip: string, now: number): SessionRow {
  const row = newSessionRow(campaign, batch, info, ip, now);
  const counted: SessionRow = {
    ...row,
    last_activity_at: now,
    duration_ms: now - row.started_at,
    event_count: batch.eventCount,
    byte_count: batch.jsonBytes,
    batch_count: 1,
    page_count: batch.pageLoads,
    has_human_input: batch.humanInput ? 1 : 0,
  };
  if (batch.moments.length) {
    const facts = foldFacts(factsOfRow(row), batch.moments);
    Object.assign(counted, factValues(facts), { entry_url: row.entry_url ?? facts.entryUrl });
  }
  const verdict = verdictOf(counted);
  return { ...counted, is_bot: verdict.isBot ? 1 : 0, bot_reason: verdict.reason };
}

/** What a session that reached a cap answers from then on: the tracker stops for the tab. */
export const SESSION_CLOSED_STATUS = 410;

/** The reason a session is closed when this batch would take it past a cap, else null. */
export function capReached(row: { byte_count: number; event_count: number; batch_count: number }, batch: PackedBatch, caps: SessionCaps): string | null {
  const mb = Math.round(caps.sessionMaxBytes / (1024 * 1024));
  if (row.byte_count + batch.jsonBytes > caps.sessionMaxBytes) return `Session closed: it reached ${mb} MB of events`;
  if (row.event_count + batch.eventCount > caps.sessionMaxEvents) return `Session closed: it reached ${caps.sessionMaxEvents} events`;
  if (row.batch_count + 1 > caps.sessionMaxBatches) return `Session closed: it reached ${caps.sessionMaxBatches} batches`;
  return null;
}

/**
 * Closes a session at its cap: the reason goes on the row, and into the replay as a note at the
 * end (a custom event in the one batch number above the tracker's range).
 */
async function closeSession(trx: Trx, campaignId: string, batch: PackedBatch, reason: string): Promise<void> {
  await setClosedReason(trx, campaignId, batch.sessionId, reason);
  const note = [{ type: EventType.Custom, data: { tag: NOTE_TAG, payload: { stopped: reason } }, timestamp: batch.lastTs }];
  await insertChunk(trx, {
    campaignId,
    sessionId: batch.sessionId,
    seq: MAX_SEQ + 1,
    firstTs: batch.lastTs,
    lastTs: batch.lastTs,
    eventCount: 1,
    data: gzipSync(JSON.stringify(note)),
  });
}

/** The bot verdict a session's row as counted earns. */
function verdictOf(row: Pick<SessionRow, 'webdriver' | 'user_agent' | 'has_human_input' | 'event_count'>) {
  return botVerdict({ webdriver: row.webdriver === 1, userAgent: row.user_agent, hasHumanInput: row.has_human_input === 1, eventCount: row.event_count });
}

/**
 * Keeps the bot verdict current as the row's facts change, as of the batch that counted the row
 * (ingest's short way runs it after its statement, outside any transaction).
 */
export async function updateVerdict(db: Executor, campaignId: string, sessionId: string, row: CountedSession): Promise<void> {
  const verdict = verdictOf(row);
  if ((verdict.isBot ? 1 : 0) !== row.is_bot || verdict.reason !== row.bot_reason) {
    await setVerdict(db, campaignId, sessionId, verdict, row.batch_count);
  }
}

/**
 * PostgreSQL: the batch counted (countBatch) and its chunk inserted by one statement, one round
 * trip instead of two; the chunk goes in only if the count did. Undefined when the count
 * matched nothing; `stored` false when the (session, seq) was stored already.
 */
async function countAndInsert(trx: Trx, campaignId: string, batch: PackedBatch, chunk: PackedChunk, caps: SessionCaps, now: number, asOf: FactsAsOf | undefined): Promise<FirstCount | undefined> {
  const row = chunkRow(chunk);
  const columns = Object.keys(CHUNK_COLUMN_TYPES) as (keyof typeof CHUNK_COLUMN_TYPES)[];
  const result = await trx
    .with('counted', (db) => countBatchQuery(db, campaignId, batch.sessionId, batch, caps, now, asOf))
    .with('stored', (db) =>
      db
        .insertInto('chunks')
        .columns(columns)
        .expression((eb) => eb.selectFrom('counted').select(columns.map((column) => eb.cast(eb.val(row[column]), CHUNK_COLUMN_TYPES[column]).as(column))))
        .onConflict((oc) => oc.columns(['campaign_id', 'session_id', 'seq']).doNothing())
        .returning('seq'),
    )
    .selectFrom('counted')
    .selectAll('counted')
    .select((eb) => eb.exists(eb.selectFrom('stored').select('seq')).as('stored'))
    .executeTakeFirst();
  if (!result) return undefined;
  const { stored, ...counted } = result;
  return { counted: counted as CountedSession, stored: Boolean(stored) };
}

/** The first try at counting a batch: `stored` is set when its chunk went in with it (PostgreSQL). */
interface FirstCount {
  counted?: CountedSession;
  stored?: boolean;
}

/** Counts the batch as of the row read; on PostgreSQL its chunk's INSERT rides along (a round trip costs more than the work there). */
async function countFirst(trx: Trx, campaignId: string, batch: PackedBatch, chunk: PackedChunk, caps: SessionCaps, now: number, asOf: FactsAsOf | undefined): Promise<FirstCount> {
  if (!isPostgres(trx)) return { counted: await countBatch(trx, campaignId, batch.sessionId, batch, caps, now, asOf) };
  return (await countAndInsert(trx, campaignId, batch, chunk, caps, now, asOf)) ?? {};
}

/** Thrown inside the transaction to undo the counters when the chunk was stored already. */
const DUPLICATE = Symbol('duplicate batch');

export interface StoreOutcome {
  stored: boolean;
  admitted: boolean;
  /** Set when the session is (now) closed at a cap: the batch was not stored. */
  closed?: string;
  /** The session's row as this batch left it, when the batch was stored. */
  state?: SessionState;
}

/** How storeBatch runs: in a group commit (ingest's route) or a transaction of its own. */
export interface StoreOptions {
  committer?: GroupCommitter;
  /** The session's row as read when the batch's limits were checked: its counters (and facts) are raised straight away. */
  known?: SessionState;
}

/** Whether a store's error is the batch's own answer (a refusal or a retried batch), not the database's. */
export const isBatchRefusal = (error: unknown): boolean => error === DUPLICATE || error instanceof HttpError;

/**
 * Stores one packed batch in a single transaction (or its savepoint in a group commit): admit
 * the session if it is new, count the batch within the session's caps, append the chunk (a
 * retried (session, seq) is ignored and counts nothing), keep the verdict current. Any refusal
 * rolls everything of the batch back; reaching a cap closes the session instead of storing the
 * batch. Resolves once the batch is committed.
 */
export async function storeBatch(db: Db, campaign: Campaign, batch: PackedBatch, ip: string, caps: SessionCaps, now = Date.now(), options: StoreOptions = {}): Promise<StoreOutcome> {
  const work = (trx: Trx) => storeIn(trx, campaign, batch, ip, caps, now, options.known);
  try {
    // New sessions last: their admission locks the campaign's row, held until the COMMIT.
    const order = `${options.known ? 0 : 1}/${campaign.id}/${batch.sessionId}`;
    return await (options.committer ? options.committer.run(work, order) : db.transaction().execute(work));
  } catch (error) {
    if (error === DUPLICATE) return { stored: false, admitted: false };
    throw error;
  }
}

/**
 * A new session is admitted last: the campaign's counter is raised by a conditional UPDATE, so
 * concurrent first batches can never admit more than the limit, and the campaign's row it locks
 * is held only from there to the COMMIT (every new session of the campaign waits for it).
 * Throwing rolls the session back with the transaction: a refused session leaves nothing.
 */
async function storeIn(trx: Trx, campaign: Campaign, batch: PackedBatch, ip: string, caps: SessionCaps, now: number, known: SessionState | undefined): Promise<StoreOutcome> {
  const outcome = await storeCounted(trx, campaign, batch, ip, caps, now, known);
  if (outcome.admitted && !(await admitOneSession(trx, campaign.id))) throw new HttpError(403, LIMIT_REACHED);
  return outcome;
}

async function storeCounted(trx: Trx, campaign: Campaign, batch: PackedBatch, ip: string, caps: SessionCaps, now: number, known: SessionState | undefined): Promise<StoreOutcome> {
  let admitted = false;
  let state = known;
  // A session not seen yet is started here, under the transaction. Its row is read only when
  // another request inserted it first (or the batch has no info to admit it with).
  if (!state) {
    // A row just inserted is a row as read: the first batch's facts go into its count too.
    state = batch.info ? await startSession(trx, campaign, batch, batch.info, ip, now) : undefined;
    admitted = state !== undefined;
    if (!state) {
      state = await sessionCounters(trx, campaign.id, batch.sessionId);
      if (!state) throw badRequest(INFO_REQUIRED);
      if (state.closed_reason) return { stored: false, admitted: false, closed: state.closed_reason };
    }
  }
  // The usual batch costs one UPDATE here: the counters raised within the caps and the facts
  // folded from the row as read, both only if the row is still as read.
  const asOf = batch.moments.length ? { facts: foldFacts(factsOfRow(state), batch.moments), batchCount: state.batch_count, startedAt: state.started_at } : undefined;
  const chunk = { campaignId: campaign.id, sessionId: batch.sessionId, seq: batch.seq, firstTs: batch.firstTs, lastTs: batch.lastTs, eventCount: batch.eventCount, data: batch.chunk };
  const first = await countFirst(trx, campaign.id, batch, chunk, caps, now, asOf);
  // Another batch of the session came between (or a cap is reached): counted as the row is now.
  const row = first.counted ?? (asOf ? await countBatch(trx, campaign.id, batch.sessionId, batch, caps, now) : undefined);
  if (!row) {
    const latest = await sessionCounters(trx, campaign.id, batch.sessionId);
    if (!latest) {
      // Erased since its limits were checked: the batch starts the session again.
      if (known) return storeCounted(trx, campaign, batch, ip, caps, now, undefined);
      throw new Error('A session admitted in this transaction is gone');
    }
    const reason = latest.closed_reason ?? capReached(latest, batch, caps) ?? 'Session closed';
    if (!latest.closed_reason) await closeSession(trx, campaign.id, batch, reason);
    return { stored: false, admitted, closed: reason };
  }
  const stored = first.stored ?? (await insertChunk(trx, chunk));
  if (!stored) throw DUPLICATE;
  await updateVerdict(trx, campaign.id, batch.sessionId, row);
  const factsWritten = asOf !== undefined && first.counted !== undefined;
  if (!batch.moments.length || factsWritten) return { stored: true, admitted, state: row };
  const facts = foldFacts(factsOfRow(row), batch.moments);
  await setFacts(trx, campaign.id, batch.sessionId, facts);
  return { stored: true, admitted, state: { ...row, ...factValues(facts) } };
}
