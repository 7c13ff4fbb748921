import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * 1 when a chunk's events are stored in timestamp order. A replay whose chunks are all sorted and
 * follow one another in time is streamed as the stored JSON text, without parsing it. Chunks
 * stored before this column existed read 0 and keep being sorted at read time.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('chunks')
    .addColumn('sorted', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('chunks').dropColumn('sorted').execute();
}
