import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * What server processes sharing one database must agree on, kept in that database:
 * generated secrets (one row per name, the first node to start writes it), the built-in sign-in
 * provider's records (interactions, codes, grants, sessions: payload JSON by model and id), and
 * rate-limit counters (one fixed window per key).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oidc_models')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('uid', 'text')
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_models_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_models_uid').on('oidc_models').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oidc_models_grant').on('oidc_models').column('grant_id').execute();
  await db.schema.createIndex('oidc_models_expiry').on('oidc_models').column('expires_at').execute();

  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_reset').on('rate_limit_hits').column('reset_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('rate_limit_hits').execute();
  await db.schema.dropTable('oidc_models').execute();
  await db.schema.dropTable('server_secrets').execute();
}
