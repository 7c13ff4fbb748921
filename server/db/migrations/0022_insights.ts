import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const DAY_MS = 86_400_000;

/**
 * The insights dashboard's per-day summaries, funnels, and the page visits funnels match on.
 *
 * insights_days: one row per campaign and UTC day, a summary of that day's sessions (JSON), kept
 * until any of the day's sessions changes. Triggers on sessions delete the day's row on every
 * insert, update and delete of a session of that day (a batch, a bot verdict, retention, erasure,
 * a deleted session or campaign), so a row never holds a session that changed or went since; the
 * next read computes the day afresh. The ingest code is untouched: the trigger is one primary-key
 * probe per session write.
 *
 * funnel_days: the same for a funnel (how many of the day's sessions reached each step, and the
 * times between steps), dropped by the same triggers, and with the funnel when it changes.
 *
 * session_errors: a session's JavaScript errors by message (count, first and last time), written
 * from ingest's buffer a second after the batch (server/insights/errors.ts).
 *
 * session_pages: each page a session loaded (its position in the session's `pages` list, the
 * path, and when ingest first stored it), written by a trigger when the session's `pages` grows
 * (a page load, so a few times a session, never on other batches).
 */
export async function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('insights_days')
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('insights_days_pk', ['campaign_id', 'day'])
    .execute();
  await db.schema
    .createTable('funnels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('within_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('funnels_campaign').on('funnels').columns(['campaign_id', 'created_at']).execute();
  await db.schema
    .createTable('funnel_days')
    .addColumn('funnel_id', 'text', (c) => c.notNull().references('funnels.id').onDelete('cascade'))
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('tally', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('funnel_days_pk', ['funnel_id', 'day'])
    .execute();
  await db.schema.createIndex('funnel_days_campaign_day').on('funnel_days').columns(['campaign_id', 'day']).execute();
  await db.schema
    .createTable('session_pages')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_pages_pk', ['campaign_id', 'session_id', 'position'])
    .addForeignKeyConstraint('session_pages_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('session_errors')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_errors_pk', ['campaign_id', 'session_id', 'message'])
    .addForeignKeyConstraint('session_errors_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('session_errors_message').on('session_errors').columns(['campaign_id', 'message']).execute();
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const dayOf = (row: 'old' | 'new') => `(${row}.started_at / ${DAY_MS}) * ${DAY_MS}`;
/**
 * Only days ended 2 days ago are stored (SETTLED_MS, server/insights/settled-days.ts): a session started
 * less than a day ago (a margin for the clocks) is of no stored day, so the triggers skip it —
 * which is every session ingest writes but for the rare one that lasts a day.
 */
const OLD_ENOUGH = { sqlite: `((julianday('now') - 2440587.5) * 86400000.0 - ${DAY_MS})`, postgres: `(extract(epoch from now()) * 1000 - ${DAY_MS})` };

async function sqliteTriggers(db: AnyDb): Promise<void> {
  const stale = (row: 'old' | 'new') =>
    sql.raw(
      `delete from insights_days where campaign_id = ${row}.campaign_id and day = ${dayOf(row)};
       delete from funnel_days where campaign_id = ${row}.campaign_id and day = ${dayOf(row)};`,
    );
  const oldEnough = (row: 'old' | 'new') => sql.raw(`${row}.started_at < ${OLD_ENOUGH.sqlite}`);
  await sql`create trigger sessions_insights_insert after insert on sessions when ${oldEnough('new')} begin ${stale('new')} end`.execute(db);
  await sql`create trigger sessions_insights_update after update on sessions when ${oldEnough('old')} begin ${stale('old')} end`.execute(db);
  await sql`create trigger sessions_insights_delete after delete on sessions when ${oldEnough('old')} begin ${stale('old')} end`.execute(db);
  // The pages list as a JSON array (a list that is no valid JSON once quoted is left out).
  const list = `'["' || replace(replace(replace(new.pages, '\\', '\\\\'), '"', '\\"'), char(10), '","') || '"]'`;
  const pages = (known: string) =>
    sql.raw(`insert or ignore into session_pages (campaign_id, session_id, position, path, at)
      select new.campaign_id, new.id, j.key, j.value, case when j.key = 0 then new.started_at else new.last_activity_at end
      from json_each(case when json_valid(${list}) then ${list} else '[]' end) as j where j.key >= ${known};`);
  const lines = `(case when old.pages is null then 0 else length(old.pages) - length(replace(old.pages, char(10), '')) + 1 end)`;
  await sql`create trigger sessions_pages_insert after insert on sessions when new.pages is not null begin ${pages('0')} end`.execute(db);
  await sql`create trigger sessions_pages_update after update of pages on sessions when new.pages is not null and new.pages is not old.pages begin ${pages(lines)} end`.execute(
    db,
  );
}

async function postgresTriggers(db: AnyDb): Promise<void> {
  await sql`create function insights_day_stale() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        delete from insights_days where campaign_id = new.campaign_id and day = ${sql.raw(dayOf('new'))};
        delete from funnel_days where campaign_id = new.campaign_id and day = ${sql.raw(dayOf('new'))};
      else
        delete from insights_days where campaign_id = old.campaign_id and day = ${sql.raw(dayOf('old'))};
        delete from funnel_days where campaign_id = old.campaign_id and day = ${sql.raw(dayOf('old'))};
      end if;
      return null;
    end $$`.execute(db);
  const oldEnough = (row: 'old' | 'new') => sql.raw(`(${row}.started_at < ${OLD_ENOUGH.postgres})`);
  await sql`create trigger sessions_insights_new after insert on sessions for each row when ${oldEnough('new')} execute function insights_day_stale()`.execute(
    db,
  );
  await sql`create trigger sessions_insights_old after update or delete on sessions for each row when ${oldEnough('old')} execute function insights_day_stale()`.execute(
    db,
  );
  await sql`create function session_pages_stored() returns trigger language plpgsql as $$
    declare known int := 0;
    begin
      if tg_op = 'UPDATE' and old.pages is not null then known := coalesce(array_length(string_to_array(old.pages, E'\n'), 1), 0); end if;
      insert into session_pages (campaign_id, session_id, position, path, at)
        select new.campaign_id, new.id, p.position - 1, p.path, case when p.position = 1 then new.started_at else new.last_activity_at end
        from unnest(string_to_array(new.pages, E'\n')) with ordinality as p(path, position)
        where p.position > known
        on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger sessions_pages_insert after insert on sessions for each row when (new.pages is not null) execute function session_pages_stored()`.execute(
    db,
  );
  await sql`create trigger sessions_pages_update after update of pages on sessions for each row when (new.pages is not null and new.pages is distinct from old.pages) execute function session_pages_stored()`.execute(
    db,
  );
}

export async function down(db: AnyDb): Promise<void> {
  for (const name of [
    'sessions_insights',
    'sessions_pages_insert',
    'sessions_pages_update',
    'sessions_insights_insert',
    'sessions_insights_update',
    'sessions_insights_delete',
  ]) {
    await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(db.getExecutor().adapter instanceof PostgresAdapter ? ' on sessions' : '')}`.execute(db);
  }
  await db.schema.dropTable('session_errors').ifExists().execute();
  await db.schema.dropTable('session_pages').ifExists().execute();
  await db.schema.dropTable('funnel_days').ifExists().execute();
  await db.schema.dropTable('funnels').ifExists().execute();
  await db.schema.dropTable('insights_days').ifExists().execute();
  await sql`drop function if exists insights_day_stale`.execute(db).catch(() => undefined);
  await sql`drop function if exists session_pages_stored`.execute(db).catch(() => undefined);
}
