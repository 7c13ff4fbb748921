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
  const names = [
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
  await db.schema
    .alterTable('campaigns')
    .addColumn('keep_query', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('campaigns')
    .addColumn('masked_params', 'text', (c) => c.notNull().defaultTo(names.join('\n')))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('masked_params').execute();
  await db.schema.alterTable('campaigns').dropColumn('keep_query').execute();
}
