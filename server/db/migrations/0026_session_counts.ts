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
    await sql`create function session_counts_kept() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${sql.raw(add('new', '+'))};
        elsif tg_op = 'DELETE' then ${sql.raw(remove)};
        else ${sql.raw(verdict)};
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger session_counts_insert after insert or delete on sessions for each row execute function session_counts_kept()`.execute(db);
    await sql`create trigger session_counts_verdict after update of is_bot on sessions for each row when (new.is_bot <> old.is_bot) execute function session_counts_kept()`.execute(db);
  } else {
    await sql`create trigger session_counts_insert after insert on sessions begin ${sql.raw(add('new', '+'))}; end`.execute(db);
    await sql`create trigger session_counts_delete after delete on sessions begin ${sql.raw(remove)}; end`.execute(db);
    await sql`create trigger session_counts_verdict after update of is_bot on sessions when new.is_bot <> old.is_bot begin ${sql.raw(verdict)}; end`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['session_counts_insert', 'session_counts_delete', 'session_counts_verdict']) {
    await sql`drop trigger if exists ${sql.raw(name)}${postgres ? sql` on sessions` : sql``}`.execute(db);
  }
  if (postgres) await sql`drop function if exists session_counts_kept()`.execute(db);
  await db.schema.dropTable('session_counts').execute();
}
