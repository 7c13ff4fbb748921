import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COUNTERS = ['quick_back_count', 'excessive_scroll_count'] as const;

/**
 * Two more frustration signals on the session row, derived at ingest like rage and dead clicks
 * (common/session-facts.ts): quick backs and bursts of excessive scrolling. Existing sessions
 * count 0. The stored insights days are dropped so the next read computes them with the two.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const column of COUNTERS) {
    await db.schema
      .alterTable('sessions')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // The few sessions that have them, newest first, as for rage and dead clicks.
  const index = (name: string, column: string) =>
    db.schema.createIndex(name).on('sessions').columns(['campaign_id', 'started_at', 'id']).where(sql.ref(column), '>', 0).execute();
  await index('sessions_campaign_with_quick_back', 'quick_back_count');
  await index('sessions_campaign_with_excessive_scroll', 'excessive_scroll_count');
  await sql`delete from insights_days`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const name of ['with_quick_back', 'with_excessive_scroll']) await db.schema.dropIndex(`sessions_campaign_${name}`).ifExists().execute();
  for (const column of COUNTERS) await db.schema.alterTable('sessions').dropColumn(column).execute();
  await sql`delete from insights_days`.execute(db);
}
