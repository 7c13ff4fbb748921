import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The sessions list's search by who and what, indexed: session_terms holds each session's search
 * terms (lower-cased: its id, user id, address, language, event names and page paths, each also
 * from every word on), and its (campaign_id, term) index answers a prefix as one range. Ingest
 * writes the terms as one more fact column (sessions.search_terms, a JSON array); triggers add
 * them here, as 0019's do for session_events, and the rows go with their session (foreign key).
 * On PostgreSQL the term compares bytes (collation "C"), so a prefix's range holds exactly the
 * terms that start with it whatever the database's collation. Sessions recorded before keep what SQL can split: the whole texts.
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('sessions').addColumn('search_terms', 'text').execute();
  await db.schema
    .createTable('session_terms')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('term', postgres ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_terms_pk', ['campaign_id', 'session_id', 'term'])
    .addForeignKeyConstraint('session_terms_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('session_terms_term').on('session_terms').columns(['campaign_id', 'term', 'session_id']).execute();
  await backfill(db, postgres);
  if (postgres) {
    await sql`create function session_terms_sync() returns trigger language plpgsql as $$
begin
  insert into session_terms (campaign_id, session_id, term)
  select new.campaign_id, new.id, t from json_array_elements_text(new.search_terms::json) as t
  on conflict do nothing;
  return null;
end $$`.execute(db);
    await sql`create trigger session_terms_insert after insert on sessions for each row when (new.search_terms is not null) execute function session_terms_sync()`.execute(
      db,
    );
    await sql`create trigger session_terms_update after update of search_terms on sessions for each row when (new.search_terms is not null and new.search_terms is distinct from old.search_terms) execute function session_terms_sync()`.execute(
      db,
    );
    return;
  }
  const sync = sql`insert into session_terms (campaign_id, session_id, term)
  select new.campaign_id, new.id, value from json_each(new.search_terms) where true
  on conflict do nothing;`;
  await sql`create trigger session_terms_insert after insert on sessions when new.search_terms is not null begin ${sync} end`.execute(db);
  await sql`create trigger session_terms_update after update of search_terms on sessions when new.search_terms is not null and new.search_terms is not old.search_terms begin ${sync} end`.execute(
    db,
  );
}

/** Terms for the sessions recorded before: id, user id, address, language, event names and pages, whole and lower-cased. */
async function backfill(db: AnyDb, postgres: boolean): Promise<void> {
  const cut = (text: string) => sql.raw(`substr(lower(${text}), 1, 100)`);
  const insert = (select: ReturnType<typeof sql>, withSplit = sql``) =>
    sql`${withSplit}insert into session_terms (campaign_id, session_id, term) select * from (${select}) as t where true on conflict do nothing`.execute(db);
  for (const name of ['id', 'user_id', 'remote_ip', 'language'])
    await insert(sql`select campaign_id, id, ${cut(name)} from sessions where ${sql.raw(name)} is not null`);
  if (postgres) {
    await insert(sql`select s.campaign_id, s.id, ${cut('e')} from sessions s, jsonb_object_keys(events::jsonb) as e where events is not null`);
    await insert(sql`select s.campaign_id, s.id, ${cut('p')} from sessions s, regexp_split_to_table(pages, E'\\n') as p where pages is not null and p <> ''`);
    return;
  }
  await insert(sql`select s.campaign_id, s.id, ${cut('e.key')} from sessions s, json_each(events) as e where events is not null`);
  // The pages column is paths one per line: split by a recursive walk (SQLite has no split).
  const split = sql`with recursive split(campaign_id, id, page, rest) as (
  select campaign_id, id, '', pages || char(10) from sessions where pages is not null
  union all
  select campaign_id, id, substr(rest, 1, instr(rest, char(10)) - 1), substr(rest, instr(rest, char(10)) + 1) from split where rest <> ''
) `;
  await insert(sql`select campaign_id, id, ${cut('page')} from split where page <> ''`, split);
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const on = sql.raw(postgres ? ' on sessions' : '');
  await sql`drop trigger if exists session_terms_insert${on}`.execute(db);
  await sql`drop trigger if exists session_terms_update${on}`.execute(db);
  if (postgres) await sql`drop function if exists session_terms_sync()`.execute(db);
  await db.schema.dropTable('session_terms').execute();
  await db.schema.alterTable('sessions').dropColumn('search_terms').execute();
}
