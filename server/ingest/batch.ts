import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { ReplayEvent, SessionInfo } from '../../src/api/types.js';
import { HttpError, badRequest } from '../http/errors.js';
import { isSessionId } from '../storage/ids.js';
import { MAX_EVENTS_PER_BATCH, MAX_INFLATED_BYTES } from '../../tracker/src/limits.js';

const gunzipAsync = promisify(gunzip);

/** One batch as the tracker sends it: POST /api/v1/ingest/{campaignId} {sessionId, seq, info?, events}. */
export interface IngestBatch {
  sessionId: string;
  seq: number;
  info: SessionInfo | null;
  events: ReplayEvent[];
  /** Size of the batch as JSON, once decompressed. */
  bytes: number;
}

const MAX_SEQ = 2_147_483_647;
/** rrweb event types: DomContentLoaded 0 … Plugin 6. */
const MAX_EVENT_TYPE = 6;

/**
 * The body as text: gzip (recognised by its magic bytes) is inflated with a hard output cap,
 * so a decompression bomb stops at MAX_INFLATED_BYTES instead of filling memory.
 */
export async function inflateBody(raw: Buffer): Promise<string> {
  if (raw.length === 0) throw badRequest('Empty body');
  if (raw[0] !== 0x1f || raw[1] !== 0x8b) return raw.toString('utf8');
  try {
    return (await gunzipAsync(raw, { maxOutputLength: MAX_INFLATED_BYTES })).toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(413, `Batch is larger than ${MAX_INFLATED_BYTES} bytes once decompressed`);
    }
    throw badRequest('Body is not valid gzip');
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
const whole = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : undefined);

/** Session info is the visitor's browser talking: kept leniently, trimmed to sane lengths. */
function sessionInfo(value: unknown): SessionInfo | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw badRequest('info must be an object');
  return {
    userAgent: text(value.userAgent, 1000),
    language: text(value.language, 100),
    timezone: text(value.timezone, 100),
    hardwareConcurrency: whole(value.hardwareConcurrency) ?? 0,
    webdriver: value.webdriver === true,
    cookiesEnabled: value.cookiesEnabled === true,
    hasFocus: value.hasFocus === true,
    fullScreenEnabled: value.fullScreenEnabled === true,
    screenWidth: whole(value.screenWidth),
    screenHeight: whole(value.screenHeight),
    referrer: text(value.referrer, 2000),
    url: text(value.url, 2000),
  };
}

function checkEvents(value: unknown): ReplayEvent[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest('events must be a non-empty array');
  if (value.length > MAX_EVENTS_PER_BATCH) throw new HttpError(413, `A batch holds at most ${MAX_EVENTS_PER_BATCH} events`);
  value.forEach((event: unknown, i) => {
    if (!isObject(event)) throw badRequest(`events[${i}] must be an object`);
    if (!Number.isInteger(event.type) || (event.type as number) < 0 || (event.type as number) > MAX_EVENT_TYPE) {
      throw badRequest(`events[${i}].type must be an rrweb event type (0 to ${MAX_EVENT_TYPE})`);
    }
    if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp) || event.timestamp <= 0) {
      throw badRequest(`events[${i}].timestamp must be a positive number`);
    }
    if (!isObject(event.data)) throw badRequest(`events[${i}].data must be an object`);
  });
  return value as ReplayEvent[];
}

/** Parses and checks a decoded body; any flaw is a 400 (or 413) with the reason. */
export function parseBatch(body: string): IngestBatch {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw badRequest('Malformed JSON body');
  }
  if (!isObject(value)) throw badRequest('The batch must be a JSON object');
  if (typeof value.sessionId !== 'string' || !isSessionId(value.sessionId)) {
    throw badRequest('sessionId must be 8 to 64 letters, digits, "-" or "_"');
  }
  if (!Number.isInteger(value.seq) || (value.seq as number) < 0 || (value.seq as number) > MAX_SEQ) {
    throw badRequest(`seq must be a whole number from 0 to ${MAX_SEQ}`);
  }
  const events = checkEvents(value.events);
  return { sessionId: value.sessionId, seq: value.seq as number, info: sessionInfo(value.info), events, bytes: Buffer.byteLength(body) };
}
