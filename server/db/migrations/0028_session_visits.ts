import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const DAY_MS = 86_400_000;
/** As 0022's triggers: only a session started over a day ago can be of a kept (settled) day. */
const OLD_ENOUGH = { sqlite: `((julianday('now') - 2440587.5) * 86400000.0 - ${DAY_MS})`, postgres: `(extract(epoch from now()) * 1000 - ${DAY_MS})` };

/**
 * session_visits: what a session did, in the order it did it, for funnels with click and event
 * steps — the pages it loaded, the elements clicked (selector path and short text, as heatmaps
 * record them) and the custom events the page sent (tapedeck.event). `at` is the page's own clock
 * (the event's timestamp): only the order and the gaps within one session are read. `seq` (the
 * batch's seq × 1024 + the visit's place in the batch) orders visits of one millisecond. Written
 * a second after the batch is stored (server/funnels/visits.ts), bounded per session; gone with
 * its session (foreign key). A visit written for a session of a kept day drops that day's funnel
 * tallies, as the session triggers of 0022 do when a session changes.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('session_visits')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_visits_pk', ['campaign_id', 'session_id', 'seq'])
    .addForeignKeyConstraint('session_visits_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  const started = `(select started_at from sessions where campaign_id = new.campaign_id and id = new.session_id)`;
  const stale = `delete from funnel_days where campaign_id = new.campaign_id and day = (${started} / ${DAY_MS}) * ${DAY_MS};`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function session_visit_stale() returns trigger language plpgsql as $$
      begin
        if ${sql.raw(started)} < ${sql.raw(OLD_ENOUGH.postgres)} then ${sql.raw(stale)} end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger session_visits_funnel_days after insert on session_visits for each row execute function session_visit_stale()`.execute(db);
  } else {
    await sql`create trigger session_visits_funnel_days after insert on session_visits when ${sql.raw(started)} < ${sql.raw(OLD_ENOUGH.sqlite)} begin ${sql.raw(stale)} end`.execute(
      db,
    );
  }
}

export async function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`drop trigger if exists session_visits_funnel_days${sql.raw(postgres ? ' on session_visits' : '')}`.execute(db);
  if (postgres) await sql`drop function if exists session_visit_stale()`.execute(db);
  await db.schema.dropTable('session_visits').ifExists().execute();
}
