import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * One row per sign-in (a refresh-token family: one device), for the account page: the browser's
 * User-Agent (capped), when it signed in, when it last refreshed, and until when it can. No IP.
 * Also an index on refresh_tokens.expires_at, which housekeeping deletes by every ten minutes.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sign_ins')
    .addColumn('family_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_ins_user').on('sign_ins').columns(['user_id', 'last_used_at']).execute();
  await db.schema.createIndex('sign_ins_expires').on('sign_ins').column('expires_at').execute();
  await db.schema.createIndex('refresh_tokens_expires').on('refresh_tokens').column('expires_at').execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('refresh_tokens_user').execute();
  await db.schema.dropIndex('refresh_tokens_expires').execute();
  await db.schema.dropTable('sign_ins').execute();
}
