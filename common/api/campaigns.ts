import { Type, type Static, type TSchema } from 'typebox';
import { StorageUse } from './sessions.js';
import { MadeId } from './shared.js';
import {
  DOMAINS_REQUIRED,
  END_REQUIRED,
  IP_MODES,
  LIMIT_INVALID,
  MAX_DOMAINS_LENGTH,
  MAX_NAME_LENGTH,
  MAX_SESSION_LIMIT,
  NAME_REQUIRED,
  RETENTION_DAYS,
  START_REQUIRED,
} from '../domains.js';

// The data-keeping settings live beside the other campaign rules, free of TypeBox for the PWA.
export { DEFAULT_IP_MODE, DEFAULT_RETENTION_DAYS } from '../domains.js';
import { MAX_TIME } from '../limits.js';
import {
  CONSENT_MODES,
  MAX_BLOCK_SELECTOR,
  MAX_CONSENT_BUFFER_SECONDS,
  MAX_MASKED_PARAMS,
  MAX_MIN_DURATION_MS,
  MAX_PARAM_NAME,
  MAX_URL_PATTERNS,
  PRIVACY_PRESETS,
} from '../recording-rules.js';
import { MAX_PATTERN_CHARS, MAX_PATTERN_STARS } from '../page-pattern.js';

/** Campaign ids are UUIDs: ownership.ts answers 400 for any other shape. */
export const CampaignIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const Campaign = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Comma-separated host names. */
  domains: Type.String(),
  /** Session cap; 0 means no limit. */
  limit: Type.Integer(),
  /** The workspace the campaign belongs to (issue 37). Optional for cached campaigns. */
  workspace_id: Type.Optional(Type.String()),
  /** Epoch milliseconds. */
  start_date_time: Type.Integer(),
  end_date_time: Type.Integer(),
  /**
   * Whether the tracker captures console.error/warn messages (errors and failed requests always).
   * The server always answers it; optional so campaigns cached by older builds still read.
   */
  captureConsole: Type.Optional(Type.Boolean()),
  /** Days recordings are kept (7, 30, 90, 365), or 0 for forever. Optional for cached campaigns. */
  retention_days: Type.Optional(Type.Integer()),
  /** How much of a visitor's IP address is stored. Optional for cached campaigns. */
  ip_mode: Type.Optional(Type.String()),
  /** Whether page addresses in recordings keep their query string (masked_params masked); false: path only. Optional for cached campaigns. */
  keep_query: Type.Optional(Type.Boolean()),
  /** Query parameters whose values are masked when keep_query is on (lower case). Optional for cached campaigns. */
  masked_params: Type.Optional(Type.Array(Type.String())),
  /** The recording rules (docs: docs/privacy.md, docs/api.md). Optional for cached campaigns. */
  sample_rate: Type.Optional(Type.Integer()),
  min_duration_ms: Type.Optional(Type.Integer()),
  url_include: Type.Optional(Type.Array(Type.String())),
  url_exclude: Type.Optional(Type.Array(Type.String())),
  block_selector: Type.Optional(Type.String()),
  privacy: Type.Optional(Type.String()),
  consent: Type.Optional(Type.String()),
  consent_buffer_seconds: Type.Optional(Type.Integer()),
  /** Sessions counted against the limit (a deleted session frees its place). Optional for cached campaigns. */
  session_count: Type.Optional(Type.Integer({ minimum: 0 })),
  /** When the campaign last received data (epoch ms), null when it never has. Optional for cached campaigns. */
  last_data_at: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /** The campaign's stored recordings against its storage quota (campaign list only; null: no quota). */
  storage: Type.Optional(Type.Union([StorageUse, Type.Null()])),
});
export type Campaign = Static<typeof Campaign>;

export const CampaignListResponse = Type.Object({ data: Type.Array(Campaign) });
/** GET /api/v1/campaign/getAll: one workspace's campaigns; left out, every campaign of every workspace the caller belongs to. */
export const CampaignListQuery = Type.Object({ workspace_id: Type.Optional(MadeId()) }, { additionalProperties: false });
export type CampaignListResponse = Static<typeof CampaignListResponse>;

export const CampaignResponse = Type.Object({ data: Campaign });

/** The words of a refusal for each field (`reason`: a wrong value; `missing`: left out), the form's where it has them. */
const name = Type.String({ maxLength: MAX_NAME_LENGTH, reason: `name must be text of at most ${MAX_NAME_LENGTH} characters`, missing: NAME_REQUIRED });
const domains = Type.String({
  maxLength: MAX_DOMAINS_LENGTH,
  reason: `domains must be text of at most ${MAX_DOMAINS_LENGTH} characters`,
  missing: DOMAINS_REQUIRED,
});
const limit = Type.Integer({ minimum: 0, maximum: MAX_SESSION_LIMIT, reason: LIMIT_INVALID });
const time = (field: string, missing: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_TIME, reason: `${field} must be epoch milliseconds (a non-negative integer)`, missing });
const startTime = time('start_date_time', START_REQUIRED);
const endTime = time('end_date_time', END_REQUIRED);
const captureConsole = Type.Boolean({ reason: 'captureConsole must be true or false' });
const retentionDays = Type.Enum(RETENTION_DAYS, { reason: `retention_days must be one of ${RETENTION_DAYS.join(', ')} (0 keeps recordings forever)` });
const ipMode = Type.Enum(IP_MODES, { reason: `ip_mode must be one of ${IP_MODES.join(', ')}` });
const keepQuery = Type.Boolean({ reason: 'keep_query must be true or false' });
const maskedParams = Type.Array(Type.String({ minLength: 1, maxLength: MAX_PARAM_NAME, pattern: '^[^\\s&=#?,]+$' }), {
  maxItems: MAX_MASKED_PARAMS,
  reason: `masked_params must be a list of at most ${MAX_MASKED_PARAMS} parameter names (1–${MAX_PARAM_NAME} characters, no spaces, &, =, #, ? or commas)`,
});
const sampleRate = Type.Integer({ minimum: 1, maximum: 100, reason: 'sample_rate must be a whole number of per cent from 1 to 100' });
const minDuration = Type.Integer({
  minimum: 0,
  maximum: MAX_MIN_DURATION_MS,
  reason: `min_duration_ms must be a whole number of milliseconds from 0 to ${MAX_MIN_DURATION_MS}`,
});
// Each pattern's rules beyond its size are common/page-pattern.ts patternFlaw's, checked after the schema (server/campaigns/payload.ts).
const urlPatterns = (field: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: MAX_PATTERN_CHARS }), {
    maxItems: MAX_URL_PATTERNS,
    reason: `${field} must be a list of at most ${MAX_URL_PATTERNS} page patterns, each up to ${MAX_PATTERN_CHARS} characters and ${MAX_PATTERN_STARS} stars (*)`,
  });
const urlInclude = urlPatterns('url_include');
const urlExclude = urlPatterns('url_exclude');
// A selector is checked by the browser (the form); here its size, and no braces or angle brackets: never a style rule or markup.
const blockSelector = Type.String({
  maxLength: MAX_BLOCK_SELECTOR,
  pattern: '^[^{}<>]*$',
  reason: `block_selector must be a CSS selector of at most ${MAX_BLOCK_SELECTOR} characters`,
});
const privacy = Type.Enum(PRIVACY_PRESETS, { reason: `privacy must be one of ${PRIVACY_PRESETS.join(', ')}` });
const consent = Type.Enum(CONSENT_MODES, { reason: `consent must be one of ${CONSENT_MODES.join(', ')}` });
const consentBuffer = Type.Integer({
  minimum: 0,
  maximum: MAX_CONSENT_BUFFER_SECONDS,
  reason: `consent_buffer_seconds must be a whole number from 0 to ${MAX_CONSENT_BUFFER_SECONDS}`,
});

/** The recording rules, each optional: left out of a create body, its default (common/recording-rules.ts). */
const rules = {
  keep_query: keepQuery,
  masked_params: maskedParams,
  sample_rate: sampleRate,
  min_duration_ms: minDuration,
  url_include: urlInclude,
  url_exclude: urlExclude,
  block_selector: blockSelector,
  privacy,
  consent,
  consent_buffer_seconds: consentBuffer,
};
const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>> };

/**
 * POST /api/v1/campaign/create. A field sent as null counts as left out. After this schema the
 * server applies the form's rules (common/domains.ts: name not blank, valid domains, end after
 * start), so the PWA and the API answer the same words. A missing limit means 0 (no limit),
 * missing retention and IP handling the defaults for new campaigns.
 */
export const CreateCampaignPayload = Type.Object(
  {
    name,
    domains,
    /** Optional, 0 (no limit) when left out. */
    limit: Type.Optional(limit),
    start_date_time: startTime,
    end_date_time: endTime,
    /** Optional, true when left out. */
    captureConsole: Type.Optional(captureConsole),
    /** Optional, DEFAULT_RETENTION_DAYS when left out. */
    retention_days: Type.Optional(retentionDays),
    /** Optional, DEFAULT_IP_MODE when left out. */
    ip_mode: Type.Optional(ipMode),
    /** Optional: path-only page addresses, DEFAULT_MASKED_PARAMS (matched without regard to case), every session and page, balanced masking, no consent. */
    ...optional(rules),
    /** Optional: the workspace the campaign belongs to (the caller's personal workspace when left out). */
    workspace_id: Type.Optional(MadeId()),
  },
  { additionalProperties: false },
);
export type CreateCampaignPayload = Static<typeof CreateCampaignPayload>;

/** A field of an update: left out keeps it, null clears it (as if left out of a create body). */
const change = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/**
 * PATCH /api/v1/campaign/update/{id}: any of the create fields. The campaign it makes (the
 * stored one with these over it, cleared fields left out) is then checked as a create body.
 */
export const UpdateCampaignPayload = Type.Object(
  {
    name: change(name),
    domains: change(domains),
    limit: change(limit),
    start_date_time: change(startTime),
    end_date_time: change(endTime),
    captureConsole: change(captureConsole),
    retention_days: change(retentionDays),
    ip_mode: change(ipMode),
    keep_query: change(keepQuery),
    masked_params: change(maskedParams),
    sample_rate: change(sampleRate),
    min_duration_ms: change(minDuration),
    url_include: change(urlInclude),
    url_exclude: change(urlExclude),
    block_selector: change(blockSelector),
    privacy: change(privacy),
    consent: change(consent),
    consent_buffer_seconds: change(consentBuffer),
  },
  { additionalProperties: false },
);
export type UpdateCampaignPayload = Static<typeof UpdateCampaignPayload>;
