// A campaign's recording rules as the tracker receives them, with their defaults and bounds:
// pure, shared by the campaign form, the server and the tracker (every byte here counts against
// the tracker's weight, so the tracker imports only what it uses).

import { pageMatches } from './page-pattern.js';

/** Query parameters whose values are hidden when a campaign keeps query strings: where sites put secrets. */
export const DEFAULT_MASKED_PARAMS = [
  'token',
  'access_token',
  'id_token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
  'email',
  'code',
  'session',
  'sid',
  'auth',
  'signature',
  'sig',
];
export const MAX_MASKED_PARAMS = 50;
export const MAX_PARAM_NAME = 100;

/** strict: all text, inputs and images masked; balanced: inputs, and e-mails and long numbers in page text; relaxed: inputs only. */
export const PRIVACY_PRESETS = ['strict', 'balanced', 'relaxed'] as const;
export type PrivacyPreset = (typeof PRIVACY_PRESETS)[number];
export const DEFAULT_PRIVACY: PrivacyPreset = 'balanced';

/** none: recorded at once; required: nothing recorded or sent until the site calls tapedeck.consent(true). */
export const CONSENT_MODES = ['none', 'required'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

export const MAX_MIN_DURATION_MS = 10 * 60 * 1000;
export const MAX_CONSENT_BUFFER_SECONDS = 60;
export const MAX_URL_PATTERNS = 20;
export const MAX_BLOCK_SELECTOR = 1000;

/** Elements never recorded on any site, whatever the campaign says (rrweb's own .rr-block too). */
export const ALWAYS_BLOCKED = '.td-block,[data-td-block],.tapedeck-block';

/**
 * What the tracker is told (GET /api/v1/ingest/{campaignId}); a field left out is its default,
 * so a campaign with default rules costs a page two bytes.
 */
export interface TrackerRules {
  /** Page addresses keep their query string, these parameters (lower case) masked; absent: path only. */
  query?: string[];
  /** Per cent of sessions recorded, 1–100 (100). */
  sample?: number;
  /** Page patterns (common/page-pattern.ts): recorded only on pages matching one (all pages when absent), never on those matching `exclude`. */
  include?: string[];
  exclude?: string[];
  /** The campaign's CSS selector of elements never recorded, besides ALWAYS_BLOCKED. */
  block?: string;
  /** Absent: balanced. */
  privacy?: 'strict' | 'relaxed';
  /** 1: consent required; `buffer`: seconds recorded in memory before it, sent on consent. */
  consent?: 1;
  buffer?: number;
}

/** Whether a session is recorded under a sample rate: decided by its id alone, so the tracker and ingest agree and a session is whole or absent. */
export function sampled(sessionId: string, rate = 100): boolean {
  let hash = 2166136261; // FNV-1a
  for (let i = 0; i < sessionId.length; i++) hash = Math.imul(hash ^ sessionId.charCodeAt(i), 16777619);
  return (hash >>> 0) % 100 < rate;
}

/** Whether a page (its path) is recorded under the include and exclude patterns. */
export const pageRecorded = (path: string, rules: Pick<TrackerRules, 'include' | 'exclude'>): boolean =>
  (!rules.include?.length || rules.include.some((pattern) => pageMatches(pattern, path))) && !rules.exclude?.some((pattern) => pageMatches(pattern, path));

const PARAM_NAME = /^[^\s&=#?,]{1,100}$/;
export const MASKED_PARAMS_INVALID = `Parameter names are separated by commas: at most ${MAX_MASKED_PARAMS}, each up to ${MAX_PARAM_NAME} characters without spaces, &, =, # or ?`;

/** The names of a comma-separated list, as the campaign form takes them. */
export const paramList = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** Whether every name of a list can be matched against a query string's parameters. */
export const validParamList = (names: string[]): boolean => names.length <= MAX_MASKED_PARAMS && names.every((name) => PARAM_NAME.test(name));
