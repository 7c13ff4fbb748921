import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Each session keeps the IP handling ('full', 'truncated', 'none') its address was stored
 * under, so the PWA labels it right even after the campaign's setting changes. Sessions stored
 * before this all kept the full address.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('ip_mode', 'text', (c) => c.notNull().defaultTo('full'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('ip_mode').execute();
}
