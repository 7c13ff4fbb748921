import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Per-campaign data keeping: how many days recordings are kept (0 = forever) and how much of a
 * visitor's IP address is stored (full, truncated, none). Existing campaigns keep today's
 * behaviour — kept forever, full address — until their owner edits them; new campaigns get
 * their defaults from the application.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('campaigns')
    .addColumn('retention_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('campaigns')
    .addColumn('ip_mode', 'text', (c) => c.notNull().defaultTo('full'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('campaigns').dropColumn('ip_mode').execute();
  await db.schema.alterTable('campaigns').dropColumn('retention_days').execute();
}
