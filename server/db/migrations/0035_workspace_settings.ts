import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A workspace's switches (issue 37): viewers watch only, unless an admin lets them download
 * recordings or make share links. Off (0) for every workspace, new and old.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('viewers_can_download', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('workspaces')
    .addColumn('viewers_can_share', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('viewers_can_share').execute();
  await db.schema.alterTable('workspaces').dropColumn('viewers_can_download').execute();
}
