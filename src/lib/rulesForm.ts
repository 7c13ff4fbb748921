import {
  DEFAULT_MASKED_PARAMS,
  DEFAULT_PRIVACY,
  MASKED_PARAMS_INVALID,
  MAX_BLOCK_SELECTOR,
  MAX_CONSENT_BUFFER_SECONDS,
  MAX_MIN_DURATION_MS,
  MAX_URL_PATTERNS,
  paramList,
  validParamList,
  type ConsentMode,
  type PrivacyPreset,
} from '../../common/recording-rules.js';
import { patternsFlaw } from '../../common/page-pattern.js';
import type { Campaign, CreateCampaignPayload } from '../../common/api-types.js';

// The campaign form's recording rules: what the tracker records and what ingest keeps. Rules and
// defaults come from common/recording-rules.ts (shared with the server and the tracker).

export interface RulesForm {
  keepQuery: boolean;
  /** Comma-separated parameter names. */
  maskedParams: string;
  /** Raw number-input texts: per cent, seconds, seconds. */
  sampleRate: string;
  minDurationSeconds: string;
  /** Path patterns, one a line. */
  urlInclude: string;
  urlExclude: string;
  blockSelector: string;
  privacy: PrivacyPreset;
  consent: ConsentMode;
  consentBufferSeconds: string;
}

/** The rules fields that can show an error. */
export type RulesFormField = 'maskedParams' | 'sampleRate' | 'minDurationSeconds' | 'urlInclude' | 'urlExclude' | 'blockSelector' | 'consentBufferSeconds';

export const SAMPLE_RATE_INVALID = 'Sessions recorded must be a whole number of per cent from 1 to 100';
export const MIN_DURATION_INVALID = `Shortest session kept must be a whole number of seconds from 0 to ${MAX_MIN_DURATION_MS / 1000}`;
export const URL_PATTERNS_INVALID = `Enter at most ${MAX_URL_PATTERNS} paths, one a line (* matches anything)`;
export const BLOCK_SELECTOR_INVALID = 'Please enter a valid CSS selector (e.g., .price, #account, [data-private])';
export const CONSENT_BUFFER_INVALID = `Seconds held before consent must be a whole number from 0 to ${MAX_CONSENT_BUFFER_SECONDS}`;

/** Each form field's name in the API's campaign. */
export const RULES_PAYLOAD_FIELDS = {
  keepQuery: 'keep_query',
  maskedParams: 'masked_params',
  sampleRate: 'sample_rate',
  minDurationSeconds: 'min_duration_ms',
  urlInclude: 'url_include',
  urlExclude: 'url_exclude',
  blockSelector: 'block_selector',
  privacy: 'privacy',
  consent: 'consent',
  consentBufferSeconds: 'consent_buffer_seconds',
} as const satisfies Record<keyof RulesForm, keyof CreateCampaignPayload>;

export const newRulesForm = (): RulesForm => ({
  keepQuery: false,
  maskedParams: DEFAULT_MASKED_PARAMS.join(', '),
  sampleRate: '100',
  minDurationSeconds: '0',
  urlInclude: '',
  urlExclude: '',
  blockSelector: '',
  privacy: DEFAULT_PRIVACY,
  consent: 'none',
  consentBufferSeconds: '0',
});

/** A stored campaign's rules (campaigns cached by older builds: the defaults). */
export function rulesForm(campaign: Campaign): RulesForm {
  const fresh = newRulesForm();
  return {
    keepQuery: campaign.keep_query === true,
    maskedParams: campaign.masked_params?.join(', ') ?? fresh.maskedParams,
    sampleRate: String(campaign.sample_rate ?? 100),
    minDurationSeconds: String(Math.round((campaign.min_duration_ms ?? 0) / 1000)),
    urlInclude: (campaign.url_include ?? []).join('\n'),
    urlExclude: (campaign.url_exclude ?? []).join('\n'),
    blockSelector: campaign.block_selector ?? '',
    privacy: (campaign.privacy as PrivacyPreset | undefined) ?? fresh.privacy,
    consent: (campaign.consent as ConsentMode | undefined) ?? fresh.consent,
    consentBufferSeconds: String(campaign.consent_buffer_seconds ?? 0),
  };
}

/** The whole number a number input's text stands for within [min, max], or null. */
function wholeIn(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

const patterns = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
/** Why a list of page patterns is refused (a pattern's flaw in the server's words), or null. */
const patternsError = (list: string[]) => (list.length > MAX_URL_PATTERNS ? URL_PATTERNS_INVALID : patternsFlaw(list));

/** Whether the browser reads the selector (the tracker records nothing on a page where it cannot). */
function validSelector(selector: string): boolean {
  if (!selector.trim()) return true;
  if (selector.length > MAX_BLOCK_SELECTOR || /[{}<>]/.test(selector)) return false;
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

export function validateRulesForm(form: RulesForm): Partial<Record<RulesFormField, string>> {
  const errors: Partial<Record<RulesFormField, string>> = {};
  if (!validParamList(paramList(form.maskedParams))) errors.maskedParams = MASKED_PARAMS_INVALID;
  if (wholeIn(form.sampleRate, 1, 100) === null) errors.sampleRate = SAMPLE_RATE_INVALID;
  if (wholeIn(form.minDurationSeconds, 0, MAX_MIN_DURATION_MS / 1000) === null) errors.minDurationSeconds = MIN_DURATION_INVALID;
  const includeError = patternsError(patterns(form.urlInclude));
  if (includeError) errors.urlInclude = includeError;
  const excludeError = patternsError(patterns(form.urlExclude));
  if (excludeError) errors.urlExclude = excludeError;
  if (!validSelector(form.blockSelector)) errors.blockSelector = BLOCK_SELECTOR_INVALID;
  if (wholeIn(form.consentBufferSeconds, 0, MAX_CONSENT_BUFFER_SECONDS) === null) errors.consentBufferSeconds = CONSENT_BUFFER_INVALID;
  return errors;
}

type RulesPayload = Pick<CreateCampaignPayload, (typeof RULES_PAYLOAD_FIELDS)[keyof RulesForm]>;

/** The rules part of a create body, for a form that passed validateRulesForm. */
export const rulesPayload = (form: RulesForm): RulesPayload => ({
  keep_query: form.keepQuery,
  masked_params: paramList(form.maskedParams),
  sample_rate: Number(form.sampleRate),
  min_duration_ms: Number(form.minDurationSeconds) * 1000,
  url_include: patterns(form.urlInclude),
  url_exclude: patterns(form.urlExclude),
  block_selector: form.blockSelector.trim(),
  privacy: form.privacy,
  consent: form.consent,
  consent_buffer_seconds: Number(form.consentBufferSeconds),
});
