import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The sessions list filtered to humans or bots pages on this index like the unfiltered list does on
 * sessions_campaign_started, and the human/bot counts are read from it without touching the rows.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('sessions_campaign_verdict').on('sessions').columns(['campaign_id', 'is_bot', 'started_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('sessions_campaign_verdict').ifExists().execute();
}
