import type { FastifySchemaCompiler } from 'fastify';
import { MAX_LIMIT, MAX_TIME, type CreateCampaignPayload } from '../../common/api/campaigns.js';
import { MAX_DOMAINS_LENGTH, MAX_NAME_LENGTH, normalizeDomains, validateCampaign } from '../../common/domains.js';
import { badRequest, type HttpError } from '../http/errors.js';

const FIELDS = ['name', 'domains', 'limit', 'start_date_time', 'end_date_time', 'captureConsole'] as const;

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

function limitOf(body: Record<string, unknown>): number {
  const value = body.limit;
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LIMIT) {
    throw badRequest('limit must be an integer of 0 or more (0 means no limit)');
  }
  return value;
}

/**
 * Checks a create body strictly — no unknown fields, no type coercion — then applies the
 * campaign form's rules (name and a valid domain list required, both dates required, end after
 * start), answering the form's own message for the first broken one. A missing limit means 0.
 */
export function parseCreateCampaign(body: unknown): CreateCampaignPayload {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw badRequest(`body unknown field "${unknown}"`);
  const draft = {
    name: optionalString(record, 'name', MAX_NAME_LENGTH),
    domains: optionalString(record, 'domains', MAX_DOMAINS_LENGTH),
    limit: limitOf(record),
    start_date_time: optionalTime(record, 'start_date_time'),
    end_date_time: optionalTime(record, 'end_date_time'),
  };
  const captureConsole = record.captureConsole ?? true;
  if (typeof captureConsole !== 'boolean') throw badRequest('captureConsole must be true or false');
  const problem = validateCampaign(draft);
  if (problem) throw badRequest(problem);
  return {
    name: (draft.name as string).trim(),
    domains: normalizeDomains(draft.domains as string),
    limit: draft.limit,
    start_date_time: draft.start_date_time as number,
    end_date_time: draft.end_date_time as number,
    captureConsole,
  };
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
