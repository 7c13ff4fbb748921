import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** ASCII upper case to lower, the same on both databases (SQLite's lower() knows no other letters). */
const LOWER = `'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'`;

/**
 * The people directory (server/people/directory.ts), indexed. A page lists people in the order
 * of their ids, so it is one range of an index by (campaign_id, user_id): SQLite's
 * sessions_campaign_user (0019) compares bytes already; PostgreSQL gets one that compares bytes
 * (collation "C") whatever the database's, so an id prefix is one range there too.
 * session_traits holds each identified session's traits, the value as text lower-cased (ASCII),
 * beside its user id: (campaign_id, key, value, user_id) answers `plan=pro` and (campaign_id,
 * value, user_id) a bare value, each in id order. Triggers keep it from sessions.traits and
 * user_id, as 0019's keep session_events; its rows go with their session (foreign key).
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const bytes = postgres ? sql`text collate "C"` : 'text';
  if (postgres) await sql`create index sessions_campaign_person on sessions (campaign_id, (user_id collate "C")) where user_id is not null`.execute(db);
  await db.schema
    .createTable('session_traits')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', bytes, (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('session_traits_pk', ['campaign_id', 'session_id', 'key'])
    .addForeignKeyConstraint('session_traits_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('session_traits_pair').on('session_traits').columns(['campaign_id', 'key', 'value', 'user_id']).execute();
  await db.schema.createIndex('session_traits_value').on('session_traits').columns(['campaign_id', 'value', 'user_id']).execute();
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function postgresTriggers(db: AnyDb): Promise<void> {
  // JSON null reads as SQL NULL here: kept as the text 'null', as SQLite's json_each types it.
  await sql`insert into session_traits (campaign_id, session_id, user_id, key, value)
    select s.campaign_id, s.id, s.user_id, e.key, translate(coalesce(e.value, 'null'), ${sql.raw(LOWER)})
    from sessions s, jsonb_each_text(s.traits::jsonb) as e where s.user_id is not null and s.traits is not null`.execute(db);
  await sql`create function session_traits_sync() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    delete from session_traits where campaign_id = new.campaign_id and session_id = new.id;
  end if;
  if new.user_id is not null and new.traits is not null then
    insert into session_traits (campaign_id, session_id, user_id, key, value)
    select new.campaign_id, new.id, new.user_id, e.key, translate(coalesce(e.value, 'null'), ${sql.raw(LOWER)}) from jsonb_each_text(new.traits::jsonb) as e
    on conflict do nothing;
  end if;
  return null;
end $$`.execute(db);
  await sql`create trigger session_traits_insert after insert on sessions for each row when (new.user_id is not null and new.traits is not null) execute function session_traits_sync()`.execute(
    db,
  );
  await sql`create trigger session_traits_update after update of user_id, traits on sessions for each row
    when (new.user_id is distinct from old.user_id or new.traits is distinct from old.traits) execute function session_traits_sync()`.execute(db);
}

async function sqliteTriggers(db: AnyDb): Promise<void> {
  // json_each types true, false and null: kept as their JSON text, as PostgreSQL's jsonb_each_text gives them.
  const value = sql.raw(`lower(case type when 'true' then 'true' when 'false' then 'false' when 'null' then 'null' else value end)`);
  await sql`insert into session_traits (campaign_id, session_id, user_id, key, value)
    select s.campaign_id, s.id, s.user_id, e.key, ${value} from sessions s, json_each(s.traits) as e where s.user_id is not null and s.traits is not null`.execute(
    db,
  );
  const insert = sql`insert into session_traits (campaign_id, session_id, user_id, key, value)
  select new.campaign_id, new.id, new.user_id, key, ${value} from json_each(new.traits) where new.user_id is not null
  on conflict do nothing;`;
  await sql`create trigger session_traits_insert after insert on sessions when new.user_id is not null and new.traits is not null begin ${insert} end`.execute(
    db,
  );
  await sql`create trigger session_traits_update after update of user_id, traits on sessions
    when new.user_id is not old.user_id or new.traits is not old.traits
    begin delete from session_traits where campaign_id = new.campaign_id and session_id = new.id; ${insert} end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const on = sql.raw(postgres ? ' on sessions' : '');
  await sql`drop trigger if exists session_traits_insert${on}`.execute(db);
  await sql`drop trigger if exists session_traits_update${on}`.execute(db);
  if (postgres) await sql`drop function if exists session_traits_sync()`.execute(db);
  await db.schema.dropTable('session_traits').execute();
  if (postgres) await sql`drop index if exists sessions_campaign_person`.execute(db);
}
