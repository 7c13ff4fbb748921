import type { CampaignRow } from '../db/schema.js';
import type { Param } from './statement.js';

/**
 * The campaign's columns a batch is judged by: its domains and dates (ingest's refusals), its
 * console setting (packing) and its IP handling (a new session's row), with their PostgreSQL
 * types. PostgreSQL's shared statements carry them as the node judged the batch by, and write
 * nothing for a batch whose campaign has changed since (another node's edit).
 */
const JUDGED = [
  ['domains', 'text'],
  ['start_date_time', 'bigint'],
  ['end_date_time', 'bigint'],
  ['capture_console', 'int'],
  ['ip_mode', 'text'],
  ['keep_query', 'int'],
  ['masked_params', 'text'],
  ['sample_rate', 'int'],
  ['url_include', 'text'],
  ['url_exclude', 'text'],
  ['consent', 'text'],
] as const;

const judgedName = (column: string) => `judged_${column}`;

/** `unnest`'s array parameters of the judged columns. */
export const judgedArrays = (p: Param<string>) => JUDGED.map(([column, type]) => `${p(judgedName(column))}::${type}[]`).join(', ');

/** `unnest`'s names for those arrays, in the same order. */
export const JUDGED_NAMES = JUDGED.map(([column]) => judgedName(column)).join(', ');

/** The judged columns of each item's campaign, as those arrays' values. */
export function judgedValues(campaigns: CampaignRow[]): Record<string, unknown[]> {
  return Object.fromEntries(JUDGED.map(([column]) => [judgedName(column), campaigns.map((campaign) => campaign[column])]));
}

/** SQL: true where the campaign of `alias`'s row (with `campaign_id`) still has the columns it was judged by. */
export function campaignUnchanged(alias: string): string {
  const same = JUDGED.map(([column]) => `k.${column} = ${alias}.${judgedName(column)}`).join(' and ');
  return `exists (select from campaigns k where k.id = ${alias}.campaign_id and ${same})`;
}

/** Whether a batch judged by `judged` would be judged the same by `now`. */
export const judgedAlike = (judged: CampaignRow, now: CampaignRow) => JUDGED.every(([column]) => judged[column] === now[column]);
