import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A campaign's recording rules: the share of sessions recorded, the shortest kept, the pages
 * recorded (path patterns one a line), the elements never recorded, how much is masked, and
 * whether the visitor's consent comes first (with seconds held in memory until it does).
 * Existing campaigns get the defaults: every session and page, balanced masking, no consent.
 */
export async function up(db: AnyDb): Promise<void> {
  const columns: [string, 'integer' | 'text', number | string][] = [
    ['sample_rate', 'integer', 100],
    ['min_duration_ms', 'integer', 0],
    ['url_include', 'text', ''],
    ['url_exclude', 'text', ''],
    ['block_selector', 'text', ''],
    ['privacy', 'text', 'balanced'],
    ['consent', 'text', 'none'],
    ['consent_buffer_seconds', 'integer', 0],
  ];
  for (const [name, type, value] of columns) {
    await db.schema
      .alterTable('campaigns')
      .addColumn(name, type, (c) => c.notNull().defaultTo(value))
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const name of ['consent_buffer_seconds', 'consent', 'privacy', 'block_selector', 'url_exclude', 'url_include', 'min_duration_ms', 'sample_rate']) {
    await db.schema.alterTable('campaigns').dropColumn(name).execute();
  }
}
