import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Read-only links to one replay. Only the SHA-256 of a link's token is kept, so a copy of the
 * database opens no replay. A link goes with its session (and so with its campaign and owner).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('include_details', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addForeignKeyConstraint('share_links_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('share_links_session').on('share_links').columns(['campaign_id', 'session_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('share_links').execute();
}
