import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * session_counts: how many sessions a campaign has, and how many of them are bots, kept by
 * triggers on sessions (a new session, a changed verdict, any deletion: erasure, retention, a
 * deleted session or campaign). The sessions list shows these counts on every page; counting
 * 100,000 rows twice per request cost PostgreSQL ~30 ms, a row read costs nothing. A campaign
 * with no row has no sessions. Existing campaigns are counted once here.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('session_counts')
    .addColumn('campaign_id', 'text', (c) => c.primaryKey().references('campaigns.id').onDelete('cascade'))
    .addColumn('sessions', 'bigint', (c) => c.notNull())
    .addColumn('bots', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into session_counts (campaign_id, sessions, bots)
    select campaign_id, count(*), sum(case when is_bot = 1 then 1 else 0 end) from sessions group by campaign_id`.execute(db);
  const add = (row: 'new' | 'old', sign: '+' | '-') =>
    `insert into session_counts (campaign_id, sessions, bots) values (${row}.campaign_id, ${sign}1, ${sign}${row}.is_bot)
     on conflict (campaign_id) do update set sessions = session_counts.sessions ${sign} 1, bots = session_counts.bots ${sign} ${row}.is_bot`;
  // A deleted campaign's row goes with it (cascade): its sessions' deletions then update nothing.
  const remove = `update session_counts set sessions = sessions - 1, bots = bots - old.is_bot where campaign_id = old.campaign_id`;
  const verdict = `update session_counts set bots = bots + new.is_bot - old.is_bot where campaign_id = new.campaign_id`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Statement-level where a statement writes many rows (a bulk insert, retention, a deleted
    // campaign): one row updated many times in one transaction costs PostgreSQL the length of its
    // version chain each time, so a per-row trigger would make a 100,000-row insert quadratic.
    await sql`create function session_counts_added() returns trigger language plpgsql as $$
      begin
        insert into session_counts (campaign_id, sessions, bots)
          select campaign_id, count(*), sum(is_bot) from added group by campaign_id
        on conflict (campaign_id) do update set sessions = session_counts.sessions + excluded.sessions, bots = session_counts.bots + excluded.bots;
        return null;
      end $$`.execute(db);
    await sql`create function session_counts_removed() returns trigger language plpgsql as $$
      begin
        update session_counts c set sessions = c.sessions - r.n, bots = c.bots - r.b
          from (select campaign_id, count(*) as n, sum(is_bot) as b from removed group by campaign_id) r
          where c.campaign_id = r.campaign_id;
        return null;
      end $$`.execute(db);
    // A verdict changes for a few rows at a time (a batch, the bot sweep): per row, and only then.
    await sql`create function session_counts_verdict() returns trigger language plpgsql as $$
      begin
        ${sql.raw(verdict)};
        return null;
      end $$`.execute(db);
    await sql`create trigger session_counts_insert after insert on sessions referencing new table as added for each statement execute function session_counts_added()`.execute(
      db,
    );
    await sql`create trigger session_counts_delete after delete on sessions referencing old table as removed for each statement execute function session_counts_removed()`.execute(
      db,
    );
    await sql`create trigger session_counts_verdict after update of is_bot on sessions for each row when (new.is_bot <> old.is_bot) execute function session_counts_verdict()`.execute(
      db,
    );
  } else {
    await sql`create trigger session_counts_insert after insert on sessions begin ${sql.raw(add('new', '+'))}; end`.execute(db);
    await sql`create trigger session_counts_delete after delete on sessions begin ${sql.raw(remove)}; end`.execute(db);
    await sql`create trigger session_counts_verdict after update of is_bot on sessions when new.is_bot <> old.is_bot begin ${sql.raw(verdict)}; end`.execute(
      db,
    );
  }
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['session_counts_insert', 'session_counts_delete', 'session_counts_verdict']) {
    await sql`drop trigger if exists ${sql.raw(name)}${postgres ? sql` on sessions` : sql``}`.execute(db);
  }
  if (postgres)
    for (const name of ['session_counts_added', 'session_counts_removed', 'session_counts_verdict'])
      await sql`drop function if exists ${sql.raw(name)}()`.execute(db);
  await db.schema.dropTable('session_counts').execute();
}
