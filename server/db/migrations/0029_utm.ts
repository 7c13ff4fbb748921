import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COLUMNS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;

/**
 * The UTM parameters of a session's entry page (utm_source, utm_medium, utm_campaign), which the
 * tracker reads before the page's address loses its query string. Existing sessions have none.
 * The stored insights days are dropped: their summaries now carry UTM campaigns, each page's time
 * on page and each hour's frustration kinds, and the next read computes them with these.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
  // The sessions list's `utm` filter: a campaign's sessions of one UTM campaign, newest first.
  await db.schema
    .createIndex('sessions_campaign_utm_campaign')
    .on('sessions')
    .columns(['campaign_id', 'utm_campaign', 'started_at'])
    .where(sql.ref('utm_campaign'), 'is not', null)
    .execute();
  await sql`delete from insights_days`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('sessions_campaign_utm_campaign').ifExists().execute();
  for (const column of COLUMNS) await db.schema.alterTable('sessions').dropColumn(column).execute();
  await sql`delete from insights_days`.execute(db);
}
