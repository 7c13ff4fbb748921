import { encodeEvents } from '../storage/chunk-codec.js';
import { EventType } from '@rrweb/types';
import type { CampaignRow } from '../db/schema.js';
import { isIP } from 'node:net';
import type { SessionInfo } from '../../common/api-types.js';
import { botVerdict } from './verdict.js';
import { softwareOf } from '../../common/user-agent.js';
import { emptyFacts, foldFacts, keepingMarks, type FactMarks, type SessionFacts } from '../../common/session-facts.js';
import { MAX_SEQ } from '../../common/limits.js';
import { NOTE_TAG } from '../../common/captured.js';
import { factValues, factsOfRow, sessionRow, withSearchTerms, type FactColumns, type SessionRow } from '../sessions/rows.js';
import { NOTHING_COUNTED, raised, type RecordedBatch } from './rules.js';
import { sessionDurationMs } from '../sessions/duration.js';
import type { Selectable } from 'kysely';
import type { ChunksTable } from '../db/schema.js';

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
  return groups ? `${groups.slice(0, 3).map((g) => g.toString(16)).join(':')}::` : null;
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
  return withSearchTerms({ ...counted, ...verdictOf(counted) });
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

/** The columns factValues writes (a fact added there flows into every statement that writes facts). */
export const FACT_VALUE_COLUMNS = Object.keys(factValues(emptyFacts())) as (keyof ReturnType<typeof factValues>)[];

/** Every column of a session's row, in one order (a column added to the table's defaults flows in). */
export const SESSION_COLUMNS = Object.keys(sessionRow({ campaign_id: '', id: '', started_at: 0 })) as (keyof SessionRow)[];

export const CHUNK_COLUMNS = [
  'campaign_id',
  'session_id',
  'seq',
  'first_ts',
  'last_ts',
  'event_count',
  'byte_size',
  'data',
  'created_at',
  'sorted',
] as const satisfies readonly (keyof ChunkRow)[];
