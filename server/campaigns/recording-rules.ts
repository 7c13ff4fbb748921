import type { Insertable, Selectable } from 'kysely';
import type { Campaign, CreateCampaignPayload } from '../../common/api-types.js';
import { DEFAULT_MASKED_PARAMS, DEFAULT_PRIVACY, type TrackerRules } from '../../common/recording-rules.js';
import type { CampaignsTable } from '../db/schema.js';
import type { PackOptions } from '../ingest/pack.js';
import type { PageRules } from '../ingest/recorded-pages.js';
import type { CampaignRow } from './repository.js';

// A campaign's recording rules as the API shows them, as the row keeps them, and as their two
// enforcers need them: the tracker, which receives them with its settings, and ingest, which
// applies them again to whatever a sender sent.

type Row = Insertable<CampaignsTable> | Selectable<CampaignsTable>;
type RuleFields = Pick<
  Campaign,
  | 'keep_query'
  | 'masked_params'
  | 'sample_rate'
  | 'min_duration_ms'
  | 'url_include'
  | 'url_exclude'
  | 'block_selector'
  | 'privacy'
  | 'consent'
  | 'consent_buffer_seconds'
>;

/** Lines of a text column as a list. */
const lines = (text: string | undefined, fallback: string[] = []) => (text === undefined ? fallback : text.split('\n').filter(Boolean));

/** The API's rule fields of a row (a row being inserted: the defaults for what it leaves out). */
export function ruleFields(row: Row): Required<RuleFields> {
  return {
    keep_query: row.keep_query === 1,
    masked_params: lines(row.masked_params, DEFAULT_MASKED_PARAMS),
    sample_rate: row.sample_rate ?? 100,
    min_duration_ms: row.min_duration_ms ?? 0,
    url_include: lines(row.url_include),
    url_exclude: lines(row.url_exclude),
    block_selector: row.block_selector ?? '',
    privacy: row.privacy ?? DEFAULT_PRIVACY,
    consent: row.consent ?? 'none',
    consent_buffer_seconds: row.consent_buffer_seconds ?? 0,
  };
}

/** The row's rule columns for a checked create body, with the defaults of the fields it left out. */
export function ruleColumns(payload: CreateCampaignPayload) {
  return {
    keep_query: payload.keep_query ? 1 : 0,
    // Matched without regard to case: kept lower case, each once.
    masked_params: [...new Set((payload.masked_params ?? DEFAULT_MASKED_PARAMS).map((name) => name.toLowerCase()))].join('\n'),
    sample_rate: payload.sample_rate ?? 100,
    min_duration_ms: payload.min_duration_ms ?? 0,
    url_include: (payload.url_include ?? []).join('\n'),
    url_exclude: (payload.url_exclude ?? []).join('\n'),
    block_selector: (payload.block_selector ?? '').trim(),
    privacy: payload.privacy ?? DEFAULT_PRIVACY,
    consent: payload.consent ?? 'none',
    consent_buffer_seconds: payload.consent_buffer_seconds ?? 0,
  };
}

/** The query parameters masked in kept page addresses, or null when the campaign keeps paths only. */
export const maskedParams = (row: CampaignRow): string[] | null => (row.keep_query === 1 ? lines(row.masked_params) : null);

/** The rules the tracker is told: only what differs from its defaults. */
export function trackerRules(row: CampaignRow): TrackerRules {
  const rules: TrackerRules = {};
  const query = maskedParams(row);
  if (query) rules.query = query;
  if (row.sample_rate < 100) rules.sample = row.sample_rate;
  if (row.url_include) rules.include = lines(row.url_include);
  if (row.url_exclude) rules.exclude = lines(row.url_exclude);
  if (row.block_selector) rules.block = row.block_selector;
  if (row.privacy === 'strict' || row.privacy === 'relaxed') rules.privacy = row.privacy;
  if (row.consent === 'required') {
    rules.consent = 1;
    if (row.consent_buffer_seconds > 0) rules.buffer = row.consent_buffer_seconds;
  }
  return rules;
}

/** The campaign's page patterns: pages recorded (none: all) and never recorded. */
export const pageRules = (row: CampaignRow): PageRules => ({ include: lines(row.url_include), exclude: lines(row.url_exclude) });

/** What packing a batch of this campaign decides: console messages kept, page addresses reduced, sessions sampled, pages recorded. */
export const packOptions = (row: CampaignRow): PackOptions => ({
  captureConsole: row.capture_console !== 0,
  maskedParams: maskedParams(row),
  sampleRate: row.sample_rate,
  ...pageRules(row),
  blockSelector: row.block_selector,
});
