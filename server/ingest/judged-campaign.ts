import { sql, type RawBuilder } from 'kysely';
import type { CampaignRow } from '../campaigns/repository.js';

/**
 * The campaign's columns a batch is judged by: its domains and dates (routes.ts's refusal), its
 * console setting (packing) and its IP handling (a new session's row), with their PostgreSQL
 * types. Ingest's short way passes them as this node saw them; its statements write nothing for
 * a batch whose campaign has changed since (the long way then reads it afresh).
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

/** The judged columns of each item's campaign, as `unnest`'s array parameters. */
export function judgedArrays(campaigns: CampaignRow[]): RawBuilder<unknown> {
  return sql.join(JUDGED.map(([column, type]) => sql`${campaigns.map((campaign) => campaign[column])}::${sql.raw(type)}[]`));
}

/** `unnest`'s names for those arrays, in the same order. */
export const JUDGED_NAMES = sql.raw(JUDGED.map(([column]) => `judged_${column}`).join(', '));

/** True where the campaign of `alias`'s row (with `campaign_id`) still has the columns it was judged by. */
export function campaignUnchanged(alias: string): RawBuilder<boolean> {
  const same = JUDGED.map(([column]) => sql`k.${sql.raw(column)} = ${sql.ref(`${alias}.judged_${column}`)}`);
  return sql<boolean>`exists (select from campaigns k where k.id = ${sql.ref(`${alias}.campaign_id`)} and ${sql.join(same, sql` and `)})`;
}
