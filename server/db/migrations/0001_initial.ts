import { type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('picture', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();

  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('domains', 'text', (c) => c.notNull())
    .addColumn('session_limit', 'integer', (c) => c.notNull())
    .addColumn('start_date_time', 'bigint', (c) => c.notNull())
    .addColumn('end_date_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('session_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('campaigns_owner').on('campaigns').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('remote_ip', 'text')
    .addColumn('country', 'text')
    .addColumn('language', 'text')
    .addColumn('timezone', 'text')
    .addColumn('hardware_concurrency', 'integer')
    .addColumn('webdriver', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cookies_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_focus', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('full_screen_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_agent', 'text')
    .addColumn('screen_width', 'integer')
    .addColumn('screen_height', 'integer')
    .addColumn('referrer', 'text')
    .addColumn('entry_url', 'text')
    .addColumn('browser', 'text')
    .addColumn('os', 'text')
    .addColumn('device', 'text')
    .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bot_reason', 'text')
    .addColumn('has_human_input', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('event_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('byte_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sessions_pk', ['campaign_id', 'id'])
    .execute();
  await db.schema.createIndex('sessions_campaign_started').on('sessions').columns(['campaign_id', 'started_at', 'id']).execute();

  await db.schema
    .createTable('chunks')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('first_ts', 'bigint', (c) => c.notNull())
    .addColumn('last_ts', 'bigint', (c) => c.notNull())
    .addColumn('event_count', 'integer', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chunks_pk', ['campaign_id', 'session_id', 'seq'])
    .addForeignKeyConstraint('chunks_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (c) => c.onDelete('cascade'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['chunks', 'sessions', 'campaigns', 'refresh_tokens', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
