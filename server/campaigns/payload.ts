import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { CreateCampaignPayload } from '../../common/api/campaigns.js';
import { normalizeDomains, validateCampaign } from '../../common/domains.js';
import { patternsFlaw } from '../../common/page-pattern.js';
import { annotationAt, fieldName } from '../../common/schema-flaw.js';
import { badRequest, type HttpError } from '../http/errors.js';

const NOT_AN_OBJECT = 'Request body must be a JSON object';

type Checker = ReturnType<typeof Compile>;

/**
 * Null when the value passes the schema, else the words for its first flaw: the failing field's
 * `reason` (or `missing` when it was left out), an unknown field by name, and for a schema
 * without words JSON Schema's own message after the field's name.
 */
function schemaFlaw(checker: Checker, schema: TSchema, value: unknown, part: string): string | null {
  if (checker.Check(value)) return null;
  if (part === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) return NOT_AN_OBJECT;
  const errors = [...checker.Errors(value)];
  const unknown = errors.find((error) => error.keyword === 'additionalProperties');
  if (unknown) return `${part} unknown field "${String((unknown.params as { additionalProperties: string[] }).additionalProperties[0])}"`;
  const [first] = errors;
  const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0];
  if (missing)
    return (
      annotationAt(schema, `${first.schemaPath}/properties/${missing}`, 'missing') ?? `${part} ${fieldName(`${first.instancePath}/${missing}`)} is required`
    );
  return annotationAt(schema, first.schemaPath) ?? `${part} ${fieldName(first.instancePath)} ${first.message}`;
}

const createChecker = Compile(CreateCampaignPayload);

/** A body's fields sent as null, left out: null clears a field. */
function withoutNulls(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
}

/** The first refused page pattern of the recorded pages' rules, after its field's name, or null. */
function urlPatternsFlaw(campaign: CreateCampaignPayload): string | null {
  for (const field of ['url_include', 'url_exclude'] as const) {
    const flaw = patternsFlaw(campaign[field] ?? []);
    if (flaw) return `${field}: ${flaw}`;
  }
  return null;
}

/**
 * A create body checked by its schema, then by the campaign form's rules (name and a valid
 * domain list, end after start, page patterns), answering the first broken one's words: the
 * campaign ready to store, name trimmed and domains normalised.
 */
export function checkCampaign(body: unknown): CreateCampaignPayload {
  const draft = withoutNulls(body);
  const flaw =
    schemaFlaw(createChecker, CreateCampaignPayload, draft, 'body') ??
    validateCampaign(draft as CreateCampaignPayload) ??
    urlPatternsFlaw(draft as CreateCampaignPayload);
  if (flaw) throw badRequest(flaw);
  const campaign = draft as CreateCampaignPayload;
  return { ...campaign, name: campaign.name.trim(), domains: normalizeDomains(campaign.domains) };
}

/** A route's validator compiler for its TypeBox schemas, answering 400 with the schema's words. */
export const reasonedValidator: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = Compile(schema);
  return (value: unknown) => {
    const flaw = schemaFlaw(checker, schema, value, httpPart ?? 'request');
    return flaw ? { error: badRequest(flaw) } : { value };
  };
};

/** The create route's validator: the body by checkCampaign, handed on as it returns it. */
export const createCampaignValidator: FastifySchemaCompiler<TSchema> = () => (body: unknown) => {
  try {
    return { value: checkCampaign(body) };
  } catch (error) {
    return { error: error as HttpError };
  }
};
