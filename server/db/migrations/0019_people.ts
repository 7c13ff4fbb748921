import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * People: who a session's visitor is and what they did, as the page told the recorder
 * (common/people.ts). `user_id`, `traits`, `events` and `tags` are session facts (JSON objects but
 * the id). The list's `event` filter reads session_events, one row per session and event name,
 * kept by the database itself from the `events` column (triggers: ingest writes one column as it
 * writes every fact, and every way a session is deleted takes its rows along). `erasures`
 * records each erasure by person: who, when, how many sessions, and the person's id only as a
 * SHA-256, so the record keeps none of the erased data.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const column of ['user_id', 'traits', 'events', 'tags']) await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
  await db.schema.createIndex('sessions_campaign_user').on('sessions').columns(['campaign_id', 'user_id', 'started_at', 'id']).execute();
  await db.schema
    .createTable('session_events')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_events_pk', ['campaign_id', 'session_id', 'name'])
    .addForeignKeyConstraint('session_events_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('session_events_name').on('session_events').columns(['campaign_id', 'name', 'session_id']).execute();
  await db.schema
    .createTable('erasures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('erased_by', 'text', (c) => c.notNull())
    .addColumn('subject_sha256', 'text', (c) => c.notNull())
    .addColumn('session_count', 'integer', (c) => c.notNull())
    .addColumn('erased_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('erasures_campaign').on('erasures').columns(['campaign_id', 'erased_at']).execute();

  // Event names only ever gain counts: an upsert per name keeps the side table in step.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function session_events_sync() returns trigger language plpgsql as $$
begin
  insert into session_events (campaign_id, session_id, name, count)
  select new.campaign_id, new.id, e.key, e.value::int from jsonb_each_text(new.events::jsonb) as e
  on conflict (campaign_id, session_id, name) do update set count = excluded.count;
  return null;
end $$`.execute(db);
    await sql`create trigger session_events_insert after insert on sessions for each row when (new.events is not null) execute function session_events_sync()`.execute(
      db,
    );
    await sql`create trigger session_events_update after update of events on sessions for each row when (new.events is not null and new.events is distinct from old.events) execute function session_events_sync()`.execute(
      db,
    );
  } else {
    const sync = sql`insert into session_events (campaign_id, session_id, name, count)
  select new.campaign_id, new.id, key, value from json_each(new.events) where true
  on conflict (campaign_id, session_id, name) do update set count = excluded.count;`;
    await sql`create trigger session_events_insert after insert on sessions when new.events is not null begin ${sync} end`.execute(db);
    await sql`create trigger session_events_update after update of events on sessions when new.events is not null and new.events is not old.events begin ${sync} end`.execute(
      db,
    );
  }
}

export async function down(db: AnyDb): Promise<void> {
  await sql`drop trigger if exists session_events_insert${db.getExecutor().adapter instanceof PostgresAdapter ? sql` on sessions` : sql``}`.execute(db);
  await sql`drop trigger if exists session_events_update${db.getExecutor().adapter instanceof PostgresAdapter ? sql` on sessions` : sql``}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function if exists session_events_sync()`.execute(db);
  await db.schema.dropTable('erasures').execute();
  await db.schema.dropTable('session_events').execute();
  await db.schema.dropIndex('sessions_campaign_user').execute();
  for (const column of ['tags', 'events', 'traits', 'user_id']) await db.schema.alterTable('sessions').dropColumn(column).execute();
}
