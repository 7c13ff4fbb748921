import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Whether a campaign's recordings keep page addresses' query strings (0: path only, as before)
 * and which parameters' values are then masked (names one a line, lower case). Existing
 * campaigns keep paths only; the names' default is the list new campaigns get.
 */
export async function up(db: AnyDb): Promise<void> {
  // The names one a line, as common/recording-rules.ts listed them on the day.
  const names = 'token\naccess_token\nid_token\nkey\napi_key\napikey\nsecret\npassword\nemail\ncode\nsession\nsid\nauth\nsignature\nsig';
  await db.schema
    .alterTable('campaigns')
    .addColumn('keep_query', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('campaigns')
    .addColumn('masked_params', 'text', (c) => c.notNull().defaultTo(names))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('masked_params').execute();
  await db.schema.alterTable('campaigns').dropColumn('keep_query').execute();
}
