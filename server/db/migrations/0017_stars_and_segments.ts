import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Starred sessions (kept past the campaign's retention) and segments (an owner's saved filters
 * of a campaign's sessions list). A star goes with its session, a segment with its campaign.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('session_stars')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('starred_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_stars_pk', ['campaign_id', 'session_id'])
    .addForeignKeyConstraint('session_stars_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('segments_campaign').on('segments').columns(['campaign_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('segments').execute();
  await db.schema.dropTable('session_stars').execute();
}
