import {
  DEFAULT_IP_MODE,
  DEFAULT_RETENTION_DAYS,
  DOMAINS_INVALID,
  LIMIT_INVALID,
  addressesKept,
  invalidDomainEntries,
  isSessionLimit,
  normalizeDomains,
  validateCampaign,
  type IpMode,
  type RetentionDays,
} from '../../common/domains.js';
import type { Campaign, CreateCampaignPayload } from '../../common/api-types.js';
import type { UpdateCampaignPayload } from '../../common/api/campaigns.js';
import { toLocalInputValue } from './format.js';
import { RULES_PAYLOAD_FIELDS, newRulesForm, rulesForm, rulesPayload, validateRulesForm, type RulesForm, type RulesFormField } from './rulesForm.js';

// The campaign form, for create and edit: name, domains, dates, session limit, console capture,
// retention and IP handling. Messages and rules come from common/domains.ts (shared with the
// server); each field is checked on its own so every field shows its own error.

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 20;
export const LIMIT_DEFAULT = 5;

export interface CampaignForm extends RulesForm {
  name: string;
  domains: string;
  /** Raw number-input text. */
  limit: string;
  /** datetime-local values in the user's time zone. */
  startDate: string;
  endDate: string;
  captureConsole: boolean;
  /** A RETENTION_DAYS value as select text. */
  retentionDays: string;
  ipMode: IpMode;
}

/** The fields that can show an error. */
export type CampaignFormField = 'name' | 'domains' | 'limit' | 'startDate' | 'endDate' | RulesFormField;
export type CampaignFormErrors = Partial<Record<CampaignFormField, string>>;

/** A new campaign: starting now, 5 sessions, console captured, the server's defaults for keeping data. */
export function newCampaignForm(now: Date): CampaignForm {
  return {
    name: '',
    domains: '',
    limit: String(LIMIT_DEFAULT),
    startDate: toLocalInputValue(now),
    endDate: '',
    captureConsole: true,
    retentionDays: String(DEFAULT_RETENTION_DAYS),
    ipMode: DEFAULT_IP_MODE,
    ...newRulesForm(),
  };
}

/** A stored campaign as the form shows it (campaigns cached by older builds: forever, full address). */
export function campaignForm(campaign: Campaign): CampaignForm {
  return {
    name: campaign.name,
    domains: campaign.domains,
    limit: String(campaign.limit),
    startDate: toLocalInputValue(new Date(campaign.start_date_time)),
    endDate: toLocalInputValue(new Date(campaign.end_date_time)),
    captureConsole: campaign.captureConsole !== false,
    retentionDays: String(campaign.retention_days ?? 0),
    ipMode: (campaign.ip_mode as IpMode | undefined) ?? 'full',
    ...rulesForm(campaign),
  };
}

/** The limit the text stands for — a whole number 1–20, or 0 for no limit — or null ('abc', '', 2.5, 21). */
export function parseLimit(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return isSessionLimit(n) ? n : null;
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
    end === null
      ? validateCampaign({ ...VALID, end_date_time: null })
      : start === null
        ? null
        : validateCampaign({ ...VALID, start_date_time: start, end_date_time: end });
  if (name) errors.name = name;
  if (domains) errors.domains = domains;
  if (parseLimit(form.limit) === null) errors.limit = LIMIT_INVALID;
  if (startError) errors.startDate = startError;
  if (endError) errors.endDate = endError;
  // The rules come after the other fields: the first error in the form's order is focused.
  return { ...errors, ...validateRulesForm(form) };
}

/** The create body for a form that passed validateCampaignForm. */
export function toCreatePayload(form: CampaignForm): CreateCampaignPayload {
  return {
    name: form.name.trim(),
    domains: normalizeDomains(form.domains),
    limit: parseLimit(form.limit) ?? Number.NaN,
    start_date_time: parseLocalDate(form.startDate) ?? Number.NaN,
    end_date_time: parseLocalDate(form.endDate) ?? Number.NaN,
    captureConsole: form.captureConsole,
    retention_days: Number(form.retentionDays) as RetentionDays,
    ip_mode: form.ipMode,
    ...rulesPayload(form),
  };
}

/** The update body: only the fields the user changed from the form as it opened (dates kept to the second they were stored). */
export function toUpdatePayload(form: CampaignForm, opened: CampaignForm): UpdateCampaignPayload {
  const all = toCreatePayload(form);
  const changed: Record<keyof CampaignForm, keyof CreateCampaignPayload> = {
    name: 'name',
    domains: 'domains',
    limit: 'limit',
    startDate: 'start_date_time',
    endDate: 'end_date_time',
    captureConsole: 'captureConsole',
    retentionDays: 'retention_days',
    ipMode: 'ip_mode',
    ...RULES_PAYLOAD_FIELDS,
  };
  const entries = (Object.keys(changed) as (keyof CampaignForm)[])
    .filter((field) => form[field] !== opened[field])
    .map((field) => [changed[field], all[changed[field]]]);
  return Object.fromEntries(entries) as UpdateCampaignPayload;
}

/** Quick choices for the end date, counted from the start date (or now when it is empty). */
export const END_DATE_CHOICES = [
  { label: '1 week', days: 7, months: 0 },
  { label: '1 month', days: 0, months: 1 },
  { label: '3 months', days: 0, months: 3 },
] as const;
export type EndDateChoice = (typeof END_DATE_CHOICES)[number];

/** The end date a quick choice gives, as the form's datetime-local text; a month on from 31 January is the end of February. */
export function endDateAfter(startDate: string, choice: EndDateChoice, now: Date): string {
  const start = new Date(parseLocalDate(startDate) ?? now.getTime());
  const end = new Date(start);
  end.setDate(1);
  end.setMonth(end.getMonth() + choice.months);
  const lastDay = new Date(end.getFullYear(), end.getMonth() + 1, 0).getDate();
  end.setDate(Math.min(start.getDate(), lastDay) + choice.days);
  return toLocalInputValue(end);
}

/** Under the domains: which entries are wrong (with the rules' message), and what was kept of pasted addresses. */
export function domainNotes(form: CampaignForm, errors: CampaignFormErrors): { wrong: string | null; kept: string | null } {
  const invalid = errors.domains === DOMAINS_INVALID ? invalidDomainEntries(form.domains) : [];
  const kept = addressesKept(form.domains);
  return {
    wrong: invalid.length ? `Not a valid domain: ${invalid.map((entry) => `“${entry}”`).join(', ')}` : null,
    kept: kept.length ? `From a web address only its host and port are kept: ${kept.map(({ entry, kept: host }) => `${entry} → ${host}`).join(', ')}` : null,
  };
}
