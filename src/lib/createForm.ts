import { normalizeDomains, validateCampaign } from '../../common/domains.js';
import type { CreateCampaignPayload } from '../../common/api-types.js';

// The create-campaign form: name, domains, dates and session limit. Messages and rules come from common/domains.ts (shared
// with the server); each field is checked on its own so every field shows its own error.

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 20;
export const LIMIT_DEFAULT = 5;

export interface CampaignForm {
  name: string;
  domains: string;
  /** Raw number-input text. */
  limit: string;
  /** datetime-local values in the user's time zone. */
  startDate: string;
  endDate: string;
}

export type CampaignFormField = keyof CampaignForm;
export type CampaignFormErrors = Partial<Record<CampaignFormField, string>>;

/** Non-numeric input becomes 0 (no limit); min/max are left to the input itself, not the submit check. */
export function parseLimit(text: string): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) ? n : 0;
}

export function parseLocalDate(value: string): number | null {
  if (!value) return null;
  const time = new Date(value).getTime();
  return Number.isFinite(time) ? time : null;
}

// A draft that passes every rule, so validateCampaign reports only the field under test.
const VALID = { name: 'x', domains: 'example.com', start_date_time: 0, end_date_time: 1 };

export function validateCampaignForm(form: CampaignForm): CampaignFormErrors {
  const errors: CampaignFormErrors = {};
  const start = parseLocalDate(form.startDate);
  const end = parseLocalDate(form.endDate);
  const name = validateCampaign({ ...VALID, name: form.name });
  const domains = validateCampaign({ ...VALID, domains: form.domains });
  const startError = validateCampaign({ ...VALID, start_date_time: start, end_date_time: (start ?? 0) + 1 });
  const endError =
    end === null ? validateCampaign({ ...VALID, end_date_time: null }) : start === null ? null : validateCampaign({ ...VALID, start_date_time: start, end_date_time: end });
  if (name) errors.name = name;
  if (domains) errors.domains = domains;
  if (startError) errors.startDate = startError;
  if (endError) errors.endDate = endError;
  return errors;
}

export function toCreatePayload(form: CampaignForm): CreateCampaignPayload {
  return {
    name: form.name.trim(),
    domains: normalizeDomains(form.domains),
    limit: parseLimit(form.limit),
    start_date_time: parseLocalDate(form.startDate) ?? Number.NaN,
    end_date_time: parseLocalDate(form.endDate) ?? Number.NaN,
  };
}
