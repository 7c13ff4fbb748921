import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Accounts of the built-in sign-in provider: one per lower-cased email, with its scrypt password
 * hash (parameters and salt inside), and whether the account signed itself up or the
 * administrator made it with `npm run user` (only those sign in while SIGNUP=closed).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('local_accounts')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('made_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('local_accounts').execute();
}
