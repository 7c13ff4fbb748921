import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Scoped API keys per workspace (issue 38). A key is kept by its SHA-256 only (`hash`, unique: the
 * one look-up of every keyed request); `prefix` is the start shown in lists. A key goes with its
 * workspace and with the account that made it. An audit entry written through a key names it
 * (`audit_log.api_key`, JSON of its id and prefix).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    // The scopes, space-separated (server/api-keys/scopes.ts names them).
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'created_at']).execute();
  await db.schema.createIndex('api_keys_created_by').on('api_keys').column('created_by').execute();
  await db.schema.alterTable('audit_log').addColumn('api_key', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('audit_log').dropColumn('api_key').execute();
  await db.schema.dropTable('api_keys').execute();
}
