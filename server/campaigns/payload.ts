import type { FastifySchemaCompiler } from 'fastify';
import {
  DEFAULT_IP_MODE,
  DEFAULT_RETENTION_DAYS,
  IP_MODES,
  RETENTION_DAYS,
  type CreateCampaignPayload,
  type IpMode,
  type RetentionDays,
  type UpdateCampaignPayload,
} from '../../common/api/campaigns.js';
import { MAX_TIME } from '../../common/api/shared.js';
import { LIMIT_INVALID, MAX_DOMAINS_LENGTH, MAX_NAME_LENGTH, isSessionLimit, normalizeDomains, validateCampaign } from '../../common/domains.js';
import { badRequest, type HttpError } from '../http/errors.js';

const FIELDS = ['name', 'domains', 'limit', 'start_date_time', 'end_date_time', 'captureConsole', 'retention_days', 'ip_mode'] as const;

function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (value.length > max) throw badRequest(`${field} must be at most ${max} characters`);
  return value;
}

function optionalTime(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TIME) {
    throw badRequest(`${field} must be epoch milliseconds (a non-negative integer)`);
  }
  return value;
}

function optionalLimit(body: Record<string, unknown>): number | undefined {
  const value = body.limit;
  if (value === undefined || value === null) return undefined;
  if (!isSessionLimit(value)) throw badRequest(LIMIT_INVALID);
  return value;
}

function optionalRetention(body: Record<string, unknown>): RetentionDays | undefined {
  const value = body.retention_days;
  if (value === undefined || value === null) return undefined;
  if (!(RETENTION_DAYS as readonly unknown[]).includes(value)) throw badRequest(`retention_days must be one of ${RETENTION_DAYS.join(', ')} (0 keeps recordings forever)`);
  return value as RetentionDays;
}

function optionalIpMode(body: Record<string, unknown>): IpMode | undefined {
  const value = body.ip_mode;
  if (value === undefined || value === null) return undefined;
  if (!(IP_MODES as readonly unknown[]).includes(value)) throw badRequest(`ip_mode must be one of ${IP_MODES.join(', ')}`);
  return value as IpMode;
}

function optionalCaptureConsole(body: Record<string, unknown>): boolean | undefined {
  const value = body.captureConsole;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest('captureConsole must be true or false');
  return value;
}

/** A JSON object with only campaign fields, each of its type: any subset of them. */
function parseFields(body: unknown): UpdateCampaignPayload {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw badRequest(`body unknown field "${unknown}"`);
  const fields: UpdateCampaignPayload = {
    name: optionalString(record, 'name', MAX_NAME_LENGTH),
    domains: optionalString(record, 'domains', MAX_DOMAINS_LENGTH),
    limit: optionalLimit(record),
    start_date_time: optionalTime(record, 'start_date_time'),
    end_date_time: optionalTime(record, 'end_date_time'),
    captureConsole: optionalCaptureConsole(record),
    retention_days: optionalRetention(record),
    ip_mode: optionalIpMode(record),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as UpdateCampaignPayload;
}

/** Applies the form's rules to a whole campaign, answering the form's message for the first broken one. */
function checkedCampaign(draft: UpdateCampaignPayload): CreateCampaignPayload {
  const problem = validateCampaign(draft);
  if (problem) throw badRequest(problem);
  return {
    name: (draft.name as string).trim(),
    domains: normalizeDomains(draft.domains as string),
    limit: draft.limit ?? 0,
    start_date_time: draft.start_date_time as number,
    end_date_time: draft.end_date_time as number,
    captureConsole: draft.captureConsole ?? true,
    retention_days: draft.retention_days ?? DEFAULT_RETENTION_DAYS,
    ip_mode: draft.ip_mode ?? DEFAULT_IP_MODE,
  };
}

/**
 * Checks a create body strictly — no unknown fields, no type coercion — then applies the
 * campaign form's rules (name and a valid domain list required, both dates required, end after
 * start), answering the form's own message for the first broken one. A missing limit means 0,
 * missing retention and IP handling the defaults for new campaigns.
 */
export function parseCreateCampaign(body: unknown): CreateCampaignPayload {
  return checkedCampaign(parseFields(body));
}

/**
 * Checks an update body the same way, then the campaign it would make (the stored one with the
 * body's fields over it) by the create rules: the changed campaign, ready to store.
 */
export function parseUpdateCampaign(body: unknown, current: CreateCampaignPayload): CreateCampaignPayload {
  const changes = parseFields(body);
  // A field sent as null is cleared, as if left out of a create body: required ones are refused.
  const cleared = Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([, value]) => value === null).map(([key]) => [key, undefined]));
  return checkedCampaign({ ...current, ...cleared, ...changes });
}

/**
 * The create route's body validator: the route declares CreateCampaignPayload as its body
 * schema (so the handler's type comes from it), and this checks a body against it with the
 * form's messages, which a generic JSON-schema validator cannot give, handing on the body as
 * parsed (trimmed, normalised, limit defaulted).
 */
export const createCampaignValidator: FastifySchemaCompiler<unknown> = () => (body: unknown) => {
  try {
    return { value: parseCreateCampaign(body) };
  } catch (error) {
    return { error: error as HttpError };
  }
};
