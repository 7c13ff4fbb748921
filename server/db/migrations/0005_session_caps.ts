import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Per-session caps: batches stored are counted beside events and bytes, a session that reached a
 * cap is closed with its reason, and the byte counter is 64-bit on PostgreSQL too (a 32-bit
 * integer overflows at 2 GiB). Existing sessions get their batch count from their chunks.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('batch_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sessions').addColumn('closed_reason', 'text').execute();
  await sql`update sessions set batch_count = (select count(*) from chunks where chunks.campaign_id = sessions.campaign_id and chunks.session_id = sessions.id)`.execute(
    db,
  );
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table sessions alter column byte_count type bigint`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('closed_reason').execute();
  await db.schema.alterTable('sessions').dropColumn('batch_count').execute();
}
