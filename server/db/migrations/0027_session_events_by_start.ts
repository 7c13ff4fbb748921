import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * session_events keeps its session's start, and its name index is ordered by it: the sessions
 * list filtered by a common event (sent in more than a thousand sessions) reads its newest page
 * as one range of that index, instead of walking the campaign's sessions and probing each one's
 * events (which cost PostgreSQL ~25 ms at 100,000 sessions). A session's start never changes:
 * a session erased and started again is a new row, whose events the triggers write anew.
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('session_events').addColumn('started_at', 'bigint').execute();
  await sql`update session_events set started_at = (select s.started_at from sessions s where s.campaign_id = session_events.campaign_id and s.id = session_events.session_id)`.execute(
    db,
  );
  await db.schema.dropIndex('session_events_name').execute();
  await db.schema.createIndex('session_events_name').on('session_events').columns(['campaign_id', 'name', 'started_at', 'session_id']).execute();
  await syncTriggers(db, postgres, true);
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('session_events_name').execute();
  await db.schema.createIndex('session_events_name').on('session_events').columns(['campaign_id', 'name', 'session_id']).execute();
  await syncTriggers(db, postgres, false);
  await db.schema.alterTable('session_events').dropColumn('started_at').execute();
}

/** Migration 0019's triggers, writing the session's start too (`withStart`) or not. */
async function syncTriggers(db: AnyDb, postgres: boolean, withStart: boolean): Promise<void> {
  const columns = sql.raw(withStart ? 'campaign_id, session_id, name, count, started_at' : 'campaign_id, session_id, name, count');
  const start = sql.raw(withStart ? ', new.started_at' : '');
  if (postgres) {
    await sql`create or replace function session_events_sync() returns trigger language plpgsql as $$
begin
  insert into session_events (${columns})
  select new.campaign_id, new.id, e.key, e.value::int${start} from jsonb_each_text(new.events::jsonb) as e
  on conflict (campaign_id, session_id, name) do update set count = excluded.count;
  return null;
end $$`.execute(db);
    return;
  }
  const sync = sql`insert into session_events (${columns})
  select new.campaign_id, new.id, key, value${start} from json_each(new.events) where true
  on conflict (campaign_id, session_id, name) do update set count = excluded.count;`;
  await sql`drop trigger session_events_insert`.execute(db);
  await sql`drop trigger session_events_update`.execute(db);
  await sql`create trigger session_events_insert after insert on sessions when new.events is not null begin ${sync} end`.execute(db);
  await sql`create trigger session_events_update after update of events on sessions when new.events is not null and new.events is not old.events begin ${sync} end`.execute(
    db,
  );
}
