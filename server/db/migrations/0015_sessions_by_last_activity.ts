import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * When a campaign last received data (the dashboard's "installed?" check) is the newest
 * last_activity_at of its sessions: this index answers it with one index probe per campaign.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('sessions_campaign_last_activity').on('sessions').columns(['campaign_id', 'last_activity_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('sessions_campaign_last_activity').ifExists().execute();
}
