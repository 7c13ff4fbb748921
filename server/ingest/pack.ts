import fs from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { EventType } from '@rrweb/types';
import { Reader, type Response } from 'mmdb-lib';
import type { SessionInfo } from '../../common/api-types.js';
import { CAPTURED_TAGS, NOTE_TAG } from '../../common/captured.js';
import type { IdRuns } from '../../common/id-runs.js';
import { batchFlaw, BatchSchema, SessionInfoSchema, type BatchBody, type SessionInfoBody } from '../../common/ingest-batch.js';
import { MAX_EVENTS_PER_BATCH, MAX_INFLATED_BYTES, MAX_JSON_DEPTH } from '../../common/limits.js';
import { pageRecorded, sampled } from '../../common/recording-rules.js';
import { pageUrl, scrubEvent, storable, withoutQuery } from '../../common/scrub.js';
import { factMoments, hasHumanInput, pathOf } from '../../common/session-facts.js';
import { softwareOf } from '../../common/user-agent.js';
import { utmValue } from '../../common/utm.js';
import { heatRecords, type HeatRecord } from '../heatmaps/records.js';
import { HttpError } from '../http/errors.js';
import type { RecordedBatch, Visitor } from '../recordings/batch.js';
import { encodeEvents, inflatedSize, inTimeOrder, receivedChunk, storableAsReceived } from '../storage/chunk-codec.js';
import { scanBatch, type BatchScan, type EventsSpan } from '../storage/scan-batch.js';
import { withoutBlockedText } from './blocked-elements.js';
import { onRecordedPages } from './recorded-pages.js';
import { PackingThreads } from './pack-pool.js';

// Everything ingest does to a batch's bytes before the database sees it: inflate, parse,
// validate, and (unless the body can be stored as it arrived) sort, serialise and compress.
// Small batches are packed on the request thread, the rest in a worker thread (BatchPacker below,
// through pack-pool.ts; pack-worker.ts is the thread's entry, a file of its own because the pool loads it by name), so
// a flood of large batches costs the event loop nothing; packBatch is plain code, so tests call it too.

/**
 * A batch checked and made ready to store: its chunk compressed, its facts derived. What
 * recordings stores (RecordedBatch), and what ingest does besides; its visitor is added on the
 * request thread (BatchPacker), null here.
 */
export interface PackedBatch extends RecordedBatch {
  /** Heatmap clicks and scroll depths (server/heatmaps), aggregated after the batch is stored. */
  heat: HeatRecord[];
  /** Every event was on pages the campaign does not record: a session not yet stored is not started by it. */
  unrecorded: boolean;
  /** Events before its first page load were kept without knowing the session's page (`opening`): the route checks it. */
  keptUnknownOpening: boolean;
  /** Ids its mutations touch before its first full snapshot (null: too many to list): the route packs it again with the session's blocked runs when they meet. */
  touchedIds: IdRuns | null;
}

/** What the campaign decides about a batch's contents. */
export interface PackOptions {
  /** false: console messages are dropped, whatever the tracker sent. */
  captureConsole: boolean;
  /** Page addresses keep their query string with these parameters masked; absent or null: path only. */
  maskedParams?: string[] | null;
  /** Per cent of sessions recorded (by session id): batches of the others are refused. */
  sampleRate?: number;
  /** Path patterns: events of pages not recorded are dropped (common/recording-rules.ts). */
  include?: string[];
  exclude?: string[];
  /** The campaign's CSS selector of elements never recorded (besides the always-blocked ones): their text is cut here too. */
  blockSelector?: string;
  /** Whether the page the session is on when the batch begins is recorded (undefined: not known, taken as recorded; a first batch's is its info's page). */
  opening?: boolean;
  /** The nodes the session's earlier batches blocked on its page (the session's carried runs). */
  blocked?: IdRuns;
}

export type PackOutcome = { ok: true; batch: PackedBatch } | { ok: false; status: number; error: string };

/** How far a batch's clock may be from the server's: stashed batches of a tab may be old. */
export const TIMESTAMP_PAST_MS = 24 * 60 * 60 * 1000;
export const TIMESTAMP_FUTURE_MS = 10 * 60 * 1000;

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A batch of a session outside the campaign's sample. */
export const NOT_SAMPLED = 'This session is outside the campaign’s sample';

/** Refused for its inflated size under a cap lower than ingest's own: the worker may still take it. */
export const OVER_CAP = 'over cap';

/** A batch past `cap` once inflated: the visitor's fault only under ingest's own cap. */
const tooLarge = (cap: number) => new Refusal(413, cap < MAX_INFLATED_BYTES ? OVER_CAP : `Batch is larger than ${MAX_INFLATED_BYTES} bytes once decompressed`);

const isGzip = (raw: Uint8Array) => raw[0] === 0x1f && raw[1] === 0x8b;

/** The body's JSON bytes. */
function inflate(raw: Uint8Array, cap: number): Buffer {
  if (raw.length === 0) throw new Refusal(400, 'Empty body');
  if (!isGzip(raw)) {
    if (raw.length > cap) throw tooLarge(cap);
    return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  }
  try {
    // A hard output cap: a decompression bomb stops here instead of filling memory.
    return gunzipSync(raw, { maxOutputLength: cap });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(cap);
    throw new Refusal(400, 'Body is not valid gzip');
  }
}

/**
 * The inflated size a body announces: the JSON's own length, or a gzip body's last four bytes
 * (its size modulo 4 GB). A hint for where to pack it, never trusted: inflating is capped anyway.
 */
export function announcedSize(raw: Uint8Array): number {
  // 18 bytes: the smallest gzip stream, a 10-byte header and an 8-byte trailer.
  return raw.length < 18 || !isGzip(raw) ? raw.length : inflatedSize(raw);
}

/** The body parsed, once one pass over its bytes found it nests no deeper than the limit (and where its events lie). */
function parse(json: Buffer): { value: unknown; scan: BatchScan } {
  const scan = scanBatch(json, MAX_JSON_DEPTH);
  if (scan.deeperThan) throw new Refusal(400, `The batch nests deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return { value: JSON.parse(json.toString('utf8')), scan };
  } catch {
    throw new Refusal(400, 'Malformed JSON body');
  }
}

/** The visitor's browser talking: checked by the schema, then trimmed to what the row keeps. */
function sessionInfo(info: SessionInfoBody, masked: string[] | null | undefined): SessionInfo {
  return {
    userAgent: storable(info.userAgent, 1000),
    language: storable(info.language, 100),
    timezone: storable(info.timezone, 100),
    hardwareConcurrency: info.hardwareConcurrency,
    webdriver: info.webdriver,
    cookiesEnabled: info.cookiesEnabled,
    hasFocus: info.hasFocus,
    fullScreenEnabled: info.fullScreenEnabled,
    screenWidth: info.screenWidth,
    screenHeight: info.screenHeight,
    // Page addresses keep no query string or fragment, where sites put tokens and e-mails, unless
    // the campaign keeps them (its named parameters masked); another site's address never does.
    referrer: storable(withoutQuery(info.referrer ?? ''), 2000),
    url: storable(pageUrl(info.url ?? '', masked), 2000),
    // The entry page's UTM parameters, scrubbed again as the tracker does (common/utm.ts).
    utmSource: utmValue(info.utmSource),
    utmMedium: utmValue(info.utmMedium),
    utmCampaign: utmValue(info.utmCampaign),
  };
}

function checkTimes(events: BatchBody['events'], now: number): void {
  const earliest = now - TIMESTAMP_PAST_MS;
  const latest = now + TIMESTAMP_FUTURE_MS;
  events.forEach((event, i) => {
    if (event.timestamp < earliest || event.timestamp > latest) {
      throw new Refusal(400, `events[${i}].timestamp must be within 24 hours before and 10 minutes after the server's clock`);
    }
  });
}

function check(value: unknown, now: number): BatchBody {
  const flaw = batchFlaw(value);
  if (flaw) throw new Refusal(400, flaw);
  const batch = value as BatchBody;
  if (batch.events.length > MAX_EVENTS_PER_BATCH) throw new Refusal(413, `A batch holds at most ${MAX_EVENTS_PER_BATCH} events`);
  checkTimes(batch.events, now);
  return batch;
}

type Event = BatchBody['events'][number];

/**
 * Every event scrubbed again here (common/scrub.ts: the tracker scrubs before sending; an old or
 * home-made sender may not), events of pages the campaign does not record dropped (in time order,
 * so a page's events follow its page load), console messages dropped when the campaign turned
 * their capture off, and blocked elements cut to placeholders (blocked-elements.ts).
 */
function scrubbed(events: Event[], options: PackOptions, opening: boolean | undefined) {
  const ordered = inTimeOrder(events);
  const pages = onRecordedPages(ordered, { include: options.include ?? [], exclude: options.exclude ?? [] }, opening);
  const kept = options.captureConsole
    ? pages.kept
    : pages.kept.filter((e) => !(e.type === EventType.Custom && (e.data as { tag?: unknown }).tag === CAPTURED_TAGS.console));
  let changed = kept.length !== events.length || ordered !== events;
  const cut = withoutBlockedText(kept, options.blockSelector ?? '', options.blocked);
  changed ||= cut.changed;
  for (const event of kept) changed = scrubEvent(event, options.maskedParams) || changed;
  return { kept, changed, pages, cut };
}

/** The page a batch begins on is recorded: a first batch's is its info's page, another's what the route knows. */
const openingRecorded = (batch: BatchBody, options: PackOptions): boolean | undefined =>
  batch.info ? pageRecorded(pathOf(batch.info.url ?? ''), { include: options.include, exclude: options.exclude }) : options.opening;

// The keys the schema checks (common/ingest-batch.ts): a body with any other is re-serialised.
const BATCH_KEYS = new Set(Object.keys(BatchSchema.properties));
const INFO_KEYS = new Set(Object.keys(SessionInfoSchema.properties));
const onlyKeys = (value: object, keys: Set<string>) => Object.keys(value).every((key) => keys.has(key));

/**
 * Where the events lie in a gzip body that can be stored as it arrived (no sorting, serialising
 * or compressing again: most of packing's cost), else null. It can when it holds just what was
 * checked: the batch's own keys, events already in time order, nothing masked or dropped here,
 * and one gzip member no larger than its JSON (nothing stored that the caps do not count); and
 * when the chunk format takes it as it is (storableAsReceived).
 */
function receivedSpan(raw: Uint8Array, json: Buffer, scan: BatchScan, batch: BatchBody, changed: boolean): EventsSpan | null {
  if (changed || !isGzip(raw) || raw.length > json.length || announcedSize(raw) !== json.length) return null;
  if (!storableAsReceived(json, scan.events)) return null;
  if (!onlyKeys(batch, BATCH_KEYS) || (batch.info && !onlyKeys(batch.info, INFO_KEYS)) || inTimeOrder(batch.events) !== batch.events) return null;
  return scan.events;
}

/**
 * Inflates, parses, validates and compresses one batch's bytes, as received. Under a `cap` lower
 * than ingest's own, a batch inflating past it is refused with OVER_CAP (not the visitor's fault).
 */
export function packBatch(raw: Uint8Array, now: number, options: PackOptions = { captureConsole: true }, cap = MAX_INFLATED_BYTES): PackOutcome {
  try {
    const json = inflate(raw, cap);
    const { value, scan } = parse(json);
    const batch = check(value, now);
    // A session the campaign's sample leaves out is refused whole, whoever sent it.
    if (!sampled(batch.sessionId, options.sampleRate)) throw new Refusal(403, NOT_SAMPLED);
    const opening = openingRecorded(batch, options);
    const { kept, changed, pages, cut } = scrubbed(batch.events, options, opening);
    const received = receivedSpan(raw, json, scan, batch, changed);
    const unrecorded = !kept.length && pages.dropped;
    // A batch of nothing but dropped events is still a batch of the session (its seq counts).
    if (!kept.length)
      kept.push({
        type: EventType.Custom,
        data: { tag: NOTE_TAG, payload: { dropped: unrecorded ? 'unrecorded pages' : 'console messages' } },
        timestamp: batch.events[0].timestamp,
      });
    const events = kept; // in time order
    const chunk = received ? receivedChunk(raw, received, events) : encodeEvents(events);
    const moments = factMoments(events);
    if (pages.endsUnrecordedAt !== undefined) moments.push({ kind: 'unrecorded', t: pages.endsUnrecordedAt });
    // At the last moment's time: a later one would judge pending clicks before the next batch could answer them.
    if (cut.hidden.length || cut.reset) moments.push({ kind: 'blocked', t: moments.at(-1)?.t ?? chunk.firstTs, runs: cut.hidden, reset: cut.reset });
    return {
      ok: true,
      batch: {
        sessionId: batch.sessionId,
        seq: batch.seq,
        // An entry page the campaign does not record is not kept: the first recorded page is the entry.
        info: batch.info ? sessionInfo(opening === false ? { ...batch.info, url: '' } : batch.info, options.maskedParams) : null,
        visitor: null,
        eventCount: chunk.eventCount,
        firstTs: chunk.firstTs,
        lastTs: chunk.lastTs,
        jsonBytes: chunk.jsonBytes,
        humanInput: hasHumanInput(events),
        pageLoads: pageLoads(events),
        moments,
        heat: heatRecords(events),
        unrecorded,
        keptUnknownOpening: pages.keptUnknownOpening,
        touchedIds: cut.touched,
        chunk: chunk.data,
      },
    };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, status: error.status, error: error.message };
    throw error;
  }
}

// Facts about a batch that only its events tell, derived where the batch is parsed.

interface EventLike {
  type: number;
  data: unknown;
}

/** Full snapshots: one per page load. */
const pageLoads = (events: EventLike[]) => events.filter((e) => e.type === EventType.FullSnapshot).length;

// What the server derives about a session's visitor from its first batch: the address's country
// (offline database, never a third-party call) and the browser's name. How much of the address a
// campaign stores is recordings' rule (rules.ts storedIp), and so is the bot verdict.

const COUNTRY_DB = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

let countries: Reader<Response> | null | undefined;

/** Loaded once per process, on the first lookup (the file is about 8 MB). */
function countryReader(): Reader<Response> | null {
  if (countries === undefined) {
    try {
      // Resolved here, not at load: a worker thread's bundle of this file (CommonJS) has no import.meta.
      countries = new Reader<Response>(fs.readFileSync(createRequire(import.meta.url).resolve(COUNTRY_DB)));
    } catch {
      countries = null;
    }
  }
  return countries;
}

/** ISO 3166 code ("US"), or null for private, local and unknown addresses. */
function countryCodeOf(ip: string): string | null {
  try {
    // This database's records are {country_code}, not MaxMind's shape.
    const code = (countryReader()?.get(ip) as { country_code?: string } | null)?.country_code;
    return code ? code.toUpperCase() : null;
  } catch {
    return null;
  }
}

/** English name of a country code ("United States"). */
const countryName = (code: string): string => regionNames.of(code) ?? code;

/** The browser's name without its version, lower-case ("chrome"): what the browser filter takes. */
const browserName = (browser: string | null): string | null => (browser ? browser.replace(/[\d.\s]+$/, '').toLowerCase() || null : null);

/** The visitor of a session's first batch (the one with its info); later batches have none. */
export function visitorOf(ip: string, info: SessionInfo | null): Visitor | null {
  if (!info) return null;
  // The country comes from the full address, whatever the campaign stores of it.
  const countryCode = countryCodeOf(ip);
  return { ip, countryCode, country: countryCode ? countryName(countryCode) : null, browserName: browserName(softwareOf(info.userAgent).browser) };
}

/**
 * Batches of at most this much JSON (a tracker's usual batch, a few KB) are packed on the request
 * thread, well under a millisecond: handing them to a worker cost the event loop about as much
 * (the message both ways) and kept a second core busy. Larger ones, and bodies announcing a
 * small size but inflating past it, go to a worker.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

function packed(outcome: PackOutcome): PackedBatch {
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
  return outcome.batch;
}

/**
 * Packs ingest batches (packBatch): small ones here, the rest in worker threads (pack-pool.ts). The
 * threads are warmed when the server gets ready, so the first large batch (or one taken while
 * shutting down) does not wait for the bundle and the threads to start.
 */
export class BatchPacker {
  readonly #threads: PackingThreads<{ raw: Buffer; now: number; options?: PackOptions }, PackOutcome>;

  constructor(workers: number) {
    this.#threads = new PackingThreads(workers);
  }

  warm(): Promise<void> {
    return this.#threads.warm();
  }

  /**
   * The packed batch, or an HttpError: the batch's flaw (4xx) or a full queue (503). `ip`, the
   * sender's address: a first batch's visitor is read from it here, on the request thread (the
   * country database is loaded once per process, not once per worker).
   */
  async pack(raw: Buffer, now: number, options?: PackOptions, ip?: string): Promise<PackedBatch> {
    const batch = await this.#packed(raw, now, options);
    if (ip !== undefined) batch.visitor = visitorOf(ip, batch.info);
    return batch;
  }

  async #packed(raw: Buffer, now: number, options?: PackOptions): Promise<PackedBatch> {
    if (announcedSize(raw) <= INLINE_MAX_BYTES) {
      const outcome = packBatch(raw, now, options, INLINE_MAX_BYTES);
      if (outcome.ok || outcome.error !== OVER_CAP) return packed(outcome);
    }
    return packed(await this.#threads.run({ raw, now, options }));
  }

  close(): Promise<void> {
    return this.#threads.close();
  }
}
