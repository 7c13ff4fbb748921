import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The search box's first page as one range of an index (issue 36): each search term keeps its
 * session's start, and the index (campaign_id, term, started_at, session_id) holds all a prefix's
 * page needs, newest first, without reading a session. A session's start never changes (a row
 * is only ever updated where it still has the start its writer read), so the triggers copy it
 * once, as they add the terms. The index replaces 0031's (campaign_id, term, session_id).
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('session_terms').addColumn('started_at', 'bigint').execute();
  await sql`update session_terms set started_at = (select s.started_at from sessions s where s.campaign_id = session_terms.campaign_id and s.id = session_terms.session_id)`.execute(
    db,
  );
  if (postgres) await sql`alter table session_terms alter column started_at set not null`.execute(db);
  await db.schema.dropIndex('session_terms_term').execute();
  await db.schema.createIndex('session_terms_by_start').on('session_terms').columns(['campaign_id', 'term', 'started_at', 'session_id']).execute();
  await syncTriggers(db, postgres, true);
}

/** 0031's triggers, adding each term with its session's start (`withStart`) or without (0031's own). */
async function syncTriggers(db: AnyDb, postgres: boolean, withStart: boolean): Promise<void> {
  const columns = withStart ? sql`, started_at` : sql``;
  const values = withStart ? sql`, new.started_at` : sql``;
  if (postgres) {
    // The triggers call the function by name: replacing it changes both.
    await sql`create or replace function session_terms_sync() returns trigger language plpgsql as $$
begin
  insert into session_terms (campaign_id, session_id, term${columns})
  select new.campaign_id, new.id, t${values} from json_array_elements_text(new.search_terms::json) as t
  on conflict do nothing;
  return null;
end $$`.execute(db);
    return;
  }
  await sql`drop trigger if exists session_terms_insert`.execute(db);
  await sql`drop trigger if exists session_terms_update`.execute(db);
  const sync = sql`insert into session_terms (campaign_id, session_id, term${columns})
  select new.campaign_id, new.id, value${values} from json_each(new.search_terms) where true
  on conflict do nothing;`;
  await sql`create trigger session_terms_insert after insert on sessions when new.search_terms is not null begin ${sync} end`.execute(db);
  await sql`create trigger session_terms_update after update of search_terms on sessions when new.search_terms is not null and new.search_terms is not old.search_terms begin ${sync} end`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await syncTriggers(db, postgres, false);
  await db.schema.dropIndex('session_terms_by_start').execute();
  await db.schema.createIndex('session_terms_term').on('session_terms').columns(['campaign_id', 'term', 'session_id']).execute();
  await db.schema.alterTable('session_terms').dropColumn('started_at').execute();
}
