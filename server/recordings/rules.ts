import type { Selectable } from 'kysely';
import { isIP } from 'node:net';
import { EventType } from '@rrweb/types';
import { isbot } from 'isbot';
import type { CampaignRow, ChunksTable } from '../db/schema.js';
import { factValues, factsOfRow, sessionRow, withSearchTerms, type FactColumns, type SessionRow } from '../sessions/rows.js';
import { sessionDurationMs } from '../sessions/duration.js';
import { encodeEvents } from '../storage/chunk-codec.js';
import type { SessionInfo } from '../../common/api-types.js';
import { foldFacts, keepingMarks, type FactMarks, type SessionFacts } from '../../common/session-facts.js';
import { MAX_SEQ, SESSION_IDLE_MS } from '../../common/limits.js';
import { NOTE_TAG } from '../../common/captured.js';
import { softwareOf } from '../../common/user-agent.js';
import type { BatchCounts, RecordedBatch, SessionCaps } from './batch.js';

/**
 * The rules of a session's counters, defined once: what a stored batch raises, the caps it may
 * not pass and why a session closes at one, and how the campaign admits a session. Both writers'
 * SQL is written from these (statements.ts, once, when a writer is made) and the JS checks read them too.
 */

export const LIMIT_REACHED = 'Session limit reached for this campaign';
export const INFO_REQUIRED = 'The first batch of a session must carry its info';

type CounterColumn = 'event_count' | 'byte_count' | 'batch_count' | 'page_count' | 'has_human_input';

interface Counter {
  column: CounterColumn;
  /** What one batch adds (a `flag` is set to 1 by a batch that has it, and stays). */
  grows: (batch: BatchCounts) => number;
  /** PostgreSQL's type for an array of it. */
  type: 'int' | 'bigint';
  flag?: true;
}

/** What a stored batch raises on its session's row. */
export const COUNTERS: readonly Counter[] = [
  { column: 'event_count', grows: (batch) => batch.eventCount, type: 'int' },
  { column: 'byte_count', grows: (batch) => batch.jsonBytes, type: 'bigint' },
  { column: 'batch_count', grows: () => 1, type: 'int' },
  { column: 'page_count', grows: (batch) => batch.pageLoads, type: 'int' },
  { column: 'has_human_input', grows: (batch) => (batch.humanInput ? 1 : 0), type: 'int', flag: true },
];

const MB = 1024 * 1024;

interface Cap {
  column: 'byte_count' | 'event_count' | 'batch_count';
  limit: (caps: SessionCaps) => number;
  /** Why the session closed, on its row and at the end of its replay. */
  reason: (caps: SessionCaps) => string;
}

/** A batch that would take its session past one of these closes the session instead. */
export const CAPS: readonly Cap[] = [
  {
    column: 'byte_count',
    limit: (caps) => caps.sessionMaxBytes,
    reason: (caps) => `Session closed: it reached ${Math.round(caps.sessionMaxBytes / MB)} MB of events`,
  },
  { column: 'event_count', limit: (caps) => caps.sessionMaxEvents, reason: (caps) => `Session closed: it reached ${caps.sessionMaxEvents} events` },
  { column: 'batch_count', limit: (caps) => caps.sessionMaxBatches, reason: (caps) => `Session closed: it reached ${caps.sessionMaxBatches} batches` },
];

const growsBy = (column: string, batch: BatchCounts) => COUNTERS.find((counter) => counter.column === column)!.grows(batch);

export type Counted = Pick<SessionRow, CounterColumn>;

/** A new session's counters, before its first batch. */
export const NOTHING_COUNTED: Counted = { event_count: 0, byte_count: 0, batch_count: 0, page_count: 0, has_human_input: 0 };

/** The reason a session is closed when this batch would take it past a cap, else null. */
export function capReached(row: Pick<SessionRow, Cap['column']>, batch: BatchCounts, caps: SessionCaps): string | null {
  const passed = CAPS.find((cap) => row[cap.column] + growsBy(cap.column, batch) > cap.limit(caps));
  return passed ? passed.reason(caps) : null;
}

/** The counters as the batch leaves them. */
export function raised(row: Counted, batch: BatchCounts): Counted {
  const next = { ...row };
  for (const { column, grows, flag } of COUNTERS) next[column] = flag ? Math.max(row[column], grows(batch)) : row[column] + grows(batch);
  return next;
}

/** The parameter (or column) holding what the batch adds to `column`, and each cap's limit. */
export const grownName = (column: string) => `grows_${column}`;
export const limitName = (column: string) => `cap_${column}`;

/** The caps' values as parameters, by limitName. */
export function capValues(caps: SessionCaps): Record<string, number> {
  return Object.fromEntries(CAPS.map((cap) => [limitName(cap.column), cap.limit(caps)]));
}

// The bot verdict, once: a session is a bot by its webdriver flag, its user agent, or for having
// no human input — after NO_INPUT_EVENTS events, or once it has ended. Ingest judges a row as it
// counts a batch (verdictOf, below); the sweep (bot-sweep.ts) judges the ended ones in SQL.

/** Whether a session has ended: no batch for SESSION_IDLE_MS, so the tracker has started another. */
export const sessionEnded = (lastActivityAt: number, now: number): boolean => lastActivityAt < endedBefore(now);

/** sessionEnded as a bound for SQL: a session whose `last_activity_at` is below this has ended. */
export const endedBefore = (now: number): number => now - SESSION_IDLE_MS;

/** A session this long without any human input is a bot even before it ends. */
export const NO_INPUT_EVENTS = 200;

export const BOT_REASONS = {
  webdriver: 'Automated browser: navigator.webdriver is true',
  userAgent: 'Crawler or headless browser user agent',
  noInput: 'No human input: no mouse, touch or pointer activity',
} as const;

export interface BotFacts {
  webdriver: boolean;
  userAgent: string | null;
  hasHumanInput: boolean;
  eventCount: number;
  /** Whether the session has ended (sessionEnded). */
  ended?: boolean;
}

/** The verdict with its reason: a set webdriver flag always means bot; then a crawler user agent, then no human input. */
export function botVerdict(facts: BotFacts): { isBot: boolean; reason: string | null } {
  if (facts.webdriver) return { isBot: true, reason: BOT_REASONS.webdriver };
  if (facts.userAgent && isbot(facts.userAgent)) return { isBot: true, reason: BOT_REASONS.userAgent };
  if (!facts.hasHumanInput && (facts.ended || facts.eventCount >= NO_INPUT_EVENTS)) return { isBot: true, reason: BOT_REASONS.noInput };
  return { isBot: false, reason: null };
}

/** The rows a batch writes, as plain values: a new session's, its facts, its verdict, a chunk's. */

/** A new session's row as its first batch finds it, before it is counted. */
export function newSessionRow(campaign: CampaignRow, batch: RecordedBatch, info: SessionInfo, now: number): SessionRow {
  const software = softwareOf(info.userAgent);
  const visitor = batch.visitor;
  return sessionRow({
    campaign_id: campaign.id,
    id: batch.sessionId,
    // The server's clock: the batch left the page just after its last event.
    started_at: now - (batch.lastTs - batch.firstTs),
    last_activity_at: now,
    // The country came from the full address; only what the campaign allows is stored.
    remote_ip: visitor && storedIp(visitor.ip, campaign.ip_mode),
    ip_mode: campaign.ip_mode,
    country: visitor?.country ?? null,
    country_code: visitor?.countryCode ?? null,
    browser_name: visitor?.browserName ?? null,
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
    utm_source: info.utmSource ?? null,
    utm_medium: info.utmMedium ?? null,
    utm_campaign: info.utmCampaign ?? null,
    ...software,
  });
}

/** The address as a campaign stores it: as seen, with its host part zeroed, or not at all. */
export function storedIp(ip: string, mode: string): string | null {
  if (mode === 'none') return null;
  if (mode === 'full') return ip;
  return truncatedIp(ip);
}

/** IPv4 with its last octet zeroed, IPv6 with its last 80 bits zeroed (the first 48 kept). */
export function truncatedIp(ip: string): string | null {
  if (isIP(ip) === 4) return ip.replace(/\.\d+$/, '.0');
  if (isIP(ip) !== 6) return null;
  const groups = ipv6Groups(ip);
  return groups
    ? `${groups
        .slice(0, 3)
        .map((g) => g.toString(16))
        .join(':')}::`
    : null;
}

/** The eight 16-bit groups of an IPv6 address (a zone index dropped, an embedded IPv4 tail read). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = text.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const groups = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The facts folded from a batch's moments onto a row, as its columns (the entry page only fills a gap). */
export type FoldedFacts = ReturnType<typeof factValues> & { entry_url: string | null };

/** The facts the batch's moments leave on a row; `marks` receives what the fold found (the heatmaps read it). */
export function foldedFacts(row: FactColumns, batch: RecordedBatch, marks?: FactMarks): FoldedFacts {
  const facts: SessionFacts = foldFacts(factsOfRow(row), batch.moments, marks && keepingMarks(marks));
  return { ...factValues(facts), entry_url: facts.entryUrl };
}

/** The bot verdict a session's row as counted earns, as its columns. */
export function verdictOf(row: Pick<SessionRow, 'webdriver' | 'user_agent' | 'has_human_input' | 'event_count'>): Pick<SessionRow, 'is_bot' | 'bot_reason'> {
  const verdict = botVerdict({
    webdriver: row.webdriver === 1,
    userAgent: row.user_agent,
    hasHumanInput: row.has_human_input === 1,
    eventCount: row.event_count,
  });
  return { is_bot: verdict.isBot ? 1 : 0, bot_reason: verdict.reason };
}

/** Whether the row's stored verdict is not the one its counters earn. */
export const verdictStale = (row: Pick<SessionRow, 'webdriver' | 'user_agent' | 'has_human_input' | 'event_count' | 'is_bot' | 'bot_reason'>) => {
  const verdict = verdictOf(row);
  return verdict.is_bot !== row.is_bot || verdict.bot_reason !== row.bot_reason;
};

/** A new session's row as its first batch leaves it: counted, its facts folded, its verdict made. */
export function firstBatchRow(campaign: CampaignRow, batch: RecordedBatch, info: SessionInfo, now: number, marks?: FactMarks): SessionRow {
  const row = newSessionRow(campaign, batch, info, now);
  const counted: SessionRow = { ...row, ...raised(NOTHING_COUNTED, batch) };
  if (batch.moments.length) {
    const facts = foldedFacts(row, batch, marks);
    Object.assign(counted, facts, {
      entry_url: row.entry_url ?? facts.entry_url,
      duration_ms: sessionDurationMs({ duration_ms: row.duration_ms, active_ms: facts.active_ms }),
    });
  }
  // The facts' terms hold what only the batch's events tell: its titles and clicked texts.
  return withSearchTerms({ ...counted, ...verdictOf(counted) }, counted.search_terms);
}

/** A chunk's row as stored: the batch's events, already sorted and compressed (ingest packs them). */
export type ChunkRow = Selectable<ChunksTable> & { data: Buffer };

export function chunkRow(
  campaignId: string,
  batch: Pick<RecordedBatch, 'sessionId' | 'seq' | 'firstTs' | 'lastTs' | 'eventCount' | 'chunk'>,
  now: number,
): ChunkRow {
  const data = Buffer.from(batch.chunk.buffer, batch.chunk.byteOffset, batch.chunk.byteLength);
  return {
    campaign_id: campaignId,
    session_id: batch.sessionId,
    seq: batch.seq,
    first_ts: batch.firstTs,
    last_ts: batch.lastTs,
    event_count: batch.eventCount,
    byte_size: data.byteLength,
    data,
    created_at: now,
    sorted: 1,
  };
}

/**
 * The note that ends the replay of a session closed at a cap: a custom event in the one batch
 * number above the tracker's range.
 */
export function closingNote(campaignId: string, batch: RecordedBatch, reason: string, now: number): ChunkRow {
  const note = [{ type: EventType.Custom, data: { tag: NOTE_TAG, payload: { stopped: reason } }, timestamp: batch.lastTs }];
  return chunkRow(
    campaignId,
    { sessionId: batch.sessionId, seq: MAX_SEQ + 1, firstTs: batch.lastTs, lastTs: batch.lastTs, eventCount: 1, chunk: encodeEvents(note).data },
    now,
  );
}

/**
 * The campaign's columns a batch is judged by: its domains and dates (ingest's refusals), its
 * console setting (packing) and its IP handling (a new session's row), with their PostgreSQL
 * types. PostgreSQL's shared statements carry them as the node judged the batch by, and write
 * nothing for a batch whose campaign has changed since (another node's edit).
 */
export const JUDGED = [
  ['domains', 'text'],
  ['start_date_time', 'bigint'],
  ['end_date_time', 'bigint'],
  ['capture_console', 'int'],
  ['ip_mode', 'text'],
  ['keep_query', 'int'],
  ['masked_params', 'text'],
  ['sample_rate', 'int'],
  ['url_include', 'text'],
  ['url_exclude', 'text'],
  ['consent', 'text'],
] as const;

export const judgedName = (column: string) => `judged_${column}`;

/** The judged columns of each item's campaign, as those arrays' values. */
export function judgedValues(campaigns: CampaignRow[]): Record<string, unknown[]> {
  return Object.fromEntries(JUDGED.map(([column]) => [judgedName(column), campaigns.map((campaign) => campaign[column])]));
}

/** Whether a batch judged by `judged` would be judged the same by `now`. */
export const judgedAlike = (judged: CampaignRow, now: CampaignRow) => JUDGED.every(([column]) => judged[column] === now[column]);
