import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const KEY = ['campaign_id', 'page', 'device', 'day'] as const;

/**
 * Heatmaps, aggregated at ingest (server/heatmaps): per campaign, page, device class and day,
 * the page's counts, position bins, top elements and scroll depths; each session's contribution
 * (heatmap_feeds) goes with its session, and a trigger queues it (heatmap_unfed) to be
 * subtracted from the aggregates, whatever deleted the session. Pages' patterns per campaign.
 */
export async function up(db: AnyDb): Promise<void> {
  const counted = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
      .addColumn('page', 'text', (c) => c.notNull())
      .addColumn('device', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull());
  await counted('heatmap_pages')
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rage_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dead_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rage_sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dead_sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fold_sum', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('snapshot_session', 'text')
    .addColumn('snapshot_at', 'bigint')
    .addPrimaryKeyConstraint('heatmap_pages_pk', [...KEY])
    .execute();
  await counted('heatmap_elements')
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rage_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dead_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fx_sum', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fy_sum', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('heatmap_elements_pk', [...KEY, 'selector'])
    .execute();
  await counted('heatmap_bins')
    .addColumn('bin', 'integer', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rage_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dead_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('heatmap_bins_pk', [...KEY, 'bin'])
    .execute();
  await counted('heatmap_scroll')
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('reached', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('heatmap_scroll_pk', [...KEY, 'depth'])
    .execute();
  await db.schema
    .createTable('heatmap_feeds')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('fed', 'text', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('heatmap_feeds_pk', ['campaign_id', 'session_id', 'page', 'device', 'day'])
    .addForeignKeyConstraint('heatmap_feeds_session_fk', ['campaign_id', 'session_id'], 'sessions', ['campaign_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('heatmap_feeds_page')
    .on('heatmap_feeds')
    .columns([...KEY])
    .execute();
  // No foreign key: a campaign's deletion queues its sessions' rows too, and the drain finds nothing left to subtract from.
  await db.schema
    .createTable('heatmap_unfed')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('fed', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('heatmap_unfed_campaign').on('heatmap_unfed').column('campaign_id').execute();
  await db.schema
    .createTable('heatmap_patterns')
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('heatmap_patterns_pk', ['campaign_id', 'pattern'])
    .execute();
  const columns = sql`campaign_id, page, device, day, session_id, fed`;
  const old = sql`old.campaign_id, old.page, old.device, old.day, old.session_id, old.fed`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function heatmap_unfeed() returns trigger language plpgsql as $$ begin insert into heatmap_unfed (${columns}) values (${old}); return null; end $$`.execute(
      db,
    );
    await sql`create trigger heatmap_feeds_unfed after delete on heatmap_feeds for each row execute function heatmap_unfeed()`.execute(db);
  } else {
    await sql`create trigger heatmap_feeds_unfed after delete on heatmap_feeds begin insert into heatmap_unfed (${columns}) values (${old}); end`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['heatmap_patterns', 'heatmap_unfed', 'heatmap_feeds', 'heatmap_scroll', 'heatmap_bins', 'heatmap_elements', 'heatmap_pages'])
    await db.schema.dropTable(table).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function if exists heatmap_unfeed()`.execute(db);
}
