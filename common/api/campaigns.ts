import { Type, type Static } from 'typebox';
import { IP_MODES, MAX_DOMAINS_LENGTH, MAX_NAME_LENGTH, MAX_SESSION_LIMIT, RETENTION_DAYS } from '../domains.js';

// The data-keeping settings live beside the other campaign rules, free of TypeBox for the PWA.
export { DEFAULT_IP_MODE, DEFAULT_RETENTION_DAYS, IP_MODES, RETENTION_DAYS, type IpMode, type RetentionDays } from '../domains.js';
import { MAX_TIME } from './shared.js';

/** Campaign ids are UUIDs: ownership.ts answers 400 for any other shape. */
export const CampaignIdParams = Type.Object({ id: Type.String() });

export const Campaign = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Comma-separated host names. */
  domains: Type.String(),
  /** Session cap; 0 means no limit. */
  limit: Type.Integer(),
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
  /** Sessions counted against the limit (a deleted session frees its place). Optional for cached campaigns. */
  session_count: Type.Optional(Type.Integer({ minimum: 0 })),
  /** When the campaign last received data (epoch ms), null when it never has. Optional for cached campaigns. */
  last_data_at: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});
export type Campaign = Static<typeof Campaign>;

export const CampaignListResponse = Type.Object({ data: Type.Array(Campaign) });
export type CampaignListResponse = Static<typeof CampaignListResponse>;

export const CampaignResponse = Type.Object({ data: Campaign });

/**
 * POST /api/v1/campaign/create, once checked: name and domains trimmed and normalised, a
 * missing limit 0 (no limit). The server checks a body against these fields with the campaign
 * form's own messages (campaigns/payload.ts), so the PWA shows the same words either side.
 */
export const CreateCampaignPayload = Type.Object(
  {
    name: Type.String({ maxLength: MAX_NAME_LENGTH }),
    domains: Type.String({ maxLength: MAX_DOMAINS_LENGTH }),
    limit: Type.Integer({ minimum: 0, maximum: MAX_SESSION_LIMIT }),
    start_date_time: Type.Integer({ minimum: 0, maximum: MAX_TIME }),
    end_date_time: Type.Integer({ minimum: 0, maximum: MAX_TIME }),
    /** Optional, true when left out. */
    captureConsole: Type.Optional(Type.Boolean()),
    /** Optional, DEFAULT_RETENTION_DAYS when left out. */
    retention_days: Type.Optional(Type.Enum(RETENTION_DAYS)),
    /** Optional, DEFAULT_IP_MODE when left out. */
    ip_mode: Type.Optional(Type.Enum(IP_MODES)),
  },
  { additionalProperties: false },
);
export type CreateCampaignPayload = Static<typeof CreateCampaignPayload>;

/** PATCH /api/v1/campaign/update/{id}: any of the create fields, checked by the same rules. */
export const UpdateCampaignPayload = Type.Partial(CreateCampaignPayload, { additionalProperties: false });
export type UpdateCampaignPayload = Static<typeof UpdateCampaignPayload>;
