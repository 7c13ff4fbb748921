import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type SqliteDatabase,
  type DatabaseConnection,
  type Driver,
  type Migration,
} from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import { StorageError, describeStorageError, ownerOnly } from '../storage/data-dir.js';
import { BACKSTOP_PAGES, startCheckpointer } from './checkpointer.js';
import { RecentlyUsed } from '../recently-used.js';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_sessions_by_verdict.js';
import * as m0003 from './migrations/0003_chunks_sorted.js';
import * as m0004 from './migrations/0004_local_accounts.js';
import * as m0005 from './migrations/0005_session_caps.js';
import * as m0006 from './migrations/0006_session_facts.js';
import * as m0007 from './migrations/0007_shared_node_state.js';
import * as m0008 from './migrations/0008_campaign_retention_and_ip_mode.js';
import * as m0009 from './migrations/0009_share_links.js';
import * as m0010 from './migrations/0010_sign_ins.js';
import * as m0012 from './migrations/0012_session_ip_mode.js';
import * as m0015 from './migrations/0015_sessions_by_last_activity.js';
import * as m0017 from './migrations/0017_stars_and_segments.js';
import * as m0018 from './migrations/0018_notes.js';
import * as m0019 from './migrations/0019_people.js';
import * as m0020 from './migrations/0020_chunks_in_time_order.js';
import * as m0022 from './migrations/0022_insights.js';
import * as m0023 from './migrations/0023_campaign_page_queries.js';
import * as m0024 from './migrations/0024_campaign_recording_rules.js';
import * as m0025 from './migrations/0025_frustration.js';
import * as m0021 from './migrations/0021_heatmaps.js';
import * as m0026 from './migrations/0026_session_counts.js';
import * as m0027 from './migrations/0027_session_events_by_start.js';
import * as m0028 from './migrations/0028_session_visits.js';
import * as m0029 from './migrations/0029_utm.js';
import * as m0030 from './migrations/0030_erasures_keyed.js';
import * as m0031 from './migrations/0031_session_terms.js';
import * as m0032 from './migrations/0032_session_terms_by_start.js';
import * as m0033 from './migrations/0033_people_directory.js';
import * as m0034 from './migrations/0034_workspaces.js';
import * as m0035 from './migrations/0035_workspace_settings.js';
import * as m0036 from './migrations/0036_api_keys.js';
import * as m0037 from './migrations/0037_webhooks.js';

export type Db = Kysely<Database>;
export type { Database };

// int8 (bigint) columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number(value));

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_sessions_by_verdict': m0002,
  '0003_chunks_sorted': m0003,
  '0004_local_accounts': m0004,
  '0005_session_caps': m0005,
  '0006_session_facts': m0006,
  '0007_shared_node_state': m0007,
  '0008_campaign_retention_and_ip_mode': m0008,
  '0009_share_links': m0009,
  '0010_sign_ins': m0010,
  '0012_session_ip_mode': m0012,
  '0015_sessions_by_last_activity': m0015,
  '0017_stars_and_segments': m0017,
  '0018_notes': m0018,
  '0019_people': m0019,
  '0020_chunks_in_time_order': m0020,
  '0021_heatmaps': m0021,
  '0022_insights': m0022,
  '0023_campaign_page_queries': m0023,
  '0024_campaign_recording_rules': m0024,
  '0025_frustration': m0025,
  '0026_session_counts': m0026,
  '0027_session_events_by_start': m0027,
  '0028_session_visits': m0028,
  '0029_utm': m0029,
  '0030_erasures_keyed': m0030,
  '0031_session_terms': m0031,
  '0032_session_terms_by_start': m0032,
  '0033_people_directory': m0033,
  '0034_workspaces': m0034,
  '0035_workspace_settings': m0035,
  '0036_api_keys': m0036,
  '0037_webhooks': m0037,
};

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** Extra pg pool settings (tests pass a per-run schema through `options`). */
  pgOptions?: pg.PoolConfig;
}

/**
 * A statement whose text starts with this is prepared once on each PostgreSQL connection and
 * kept there: for ingest's hottest statements, whose text never changes, parsing and planning
 * cost PostgreSQL more than running them. Only fixed texts may carry it (a connection keeps
 * every statement it prepared).
 */
export const PREPARED = '/* prepared */ ';

/** Statement texts marked PREPARED a pool names; ingest has a handful. */
const PREPARED_TEXTS_MAX = 1000;

/**
 * Executions of prepared statements on one connection after which it drops its cached plans
 * (DISCARD PLANS): PostgreSQL plans a prepared statement once for good after its fifth run, for
 * the tables as they were then. On a new install those are a few rows, so the plan reads all of
 * sessions; until autovacuum analyzes it (a minute or more) every batch did, and the table grows.
 * Planned again at these points, the plans follow the tables as they grow; later, autovacuum's
 * analyses do it.
 */
const REPLAN_AT = new Set([64, 256, 1024, 4096, 16_384, 65_536]);

/** pg's client class for one pool, naming the statements marked PREPARED (pg prepares a named statement once a connection). */
function preparingClient(): typeof pg.Client {
  const names = new RecentlyUsed<string, string>(PREPARED_TEXTS_MAX);
  let named = 0;
  return class PreparingClient extends pg.Client {
    #preparedRuns = 0;

    override query(...args: unknown[]): never {
      const [text, values] = args;
      if (typeof text === 'string' && text.startsWith(PREPARED) && Array.isArray(values)) {
        let name = names.get(text);
        if (!name) names.set(text, (name = `tapedeck_${named++}`));
        args.splice(0, 2, { name, text, values });
        // Queued ahead of this statement on this connection; its failure is the statement's to report.
        if (REPLAN_AT.has(++this.#preparedRuns)) super.query('discard plans').catch(() => undefined);
      }
      return (super.query as (...rest: unknown[]) => never)(...args);
    }
  };
}

/** Opens the configured database: PostgreSQL when a URL is given, else SQLite in WAL mode. */
export function openDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, Client: preparingClient(), ...options.pgOptions });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  // The data directory holds visitors' recordings and our secrets: owner-only.
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(options.dataDir, 'tapedeck.sqlite');
  let database: SQLite.Database;
  try {
    // SQLite gives the -wal and -shm files the database file's mode: 0600 for all three.
    ownerOnly(file, true);
    database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    for (const suffix of ['-wal', '-shm']) ownerOnly(file + suffix);
  } catch (error) {
    throw new StorageError(`the database ${file} cannot be opened for writing: ${describeStorageError(error)}`);
  }
  return new Kysely<Database>({ dialect: new RollbackSafeSqliteDialect({ database, stopCheckpoints: startCheckpointer(file) }) });
}

/** How many compiled statements are kept; ingest runs a dozen, the whole app a few hundred. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 compiles a statement on every prepare() (Kysely asks for one per query), and
 * ingest runs the same few statements thousands of times a second: keep the compiled ones. A
 * statement still being iterated (a streamed replay) is busy, so a second user gets a new one.
 */
function withStatementCache(database: SQLite.Database, onClose: () => void): SqliteDatabase {
  const cache = new RecentlyUsed<string, SQLite.Statement>(STATEMENT_CACHE_SIZE);
  return {
    close: () => {
      onClose();
      database.close();
    },
    prepare(text: string) {
      const known = cache.get(text);
      if (known?.busy) return database.prepare(text);
      const statement = known ?? database.prepare(text);
      cache.set(text, statement); // the least recently used is dropped
      return statement;
    },
  };
}

/**
 * SQLite itself rolls a transaction back when a statement fails with SQLITE_FULL or an I/O
 * error; Kysely's own rollback then fails with "cannot rollback - no transaction is active",
 * and that error replaces the real one. Roll back only a transaction that is still open.
 */
class RollbackSafeSqliteDialect extends SqliteDialect {
  readonly #database: SQLite.Database;
  readonly #stopCheckpoints: () => void;

  constructor(config: { database: SQLite.Database; stopCheckpoints: () => void }) {
    super(config);
    this.#database = config.database;
    this.#stopCheckpoints = config.stopCheckpoints;
  }

  override createDriver(): Driver {
    const database = this.#database;
    return new (class extends SqliteDriver {
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (database.inTransaction) await super.rollbackTransaction(connection);
      }
    })({ database: withStatementCache(database, this.#stopCheckpoints) });
  }
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function migratorFor(db: Db): Promise<Migrator> {
  // Kysely looks for its own tables in every schema unless told which one: name ours, so a second
  // database schema on the same server (tests, other tenants) cannot hide missing tables.
  const migrationTableSchema = isPostgres(db) ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } });
}

/** Brings the schema up to date; Kysely's migrator takes a lock, so nodes may start together. */
export async function migrate(db: Db): Promise<void> {
  const { error, results } = await (await migratorFor(db)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Names of this version's migrations the database has not run (readiness checks it). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await (await migratorFor(db)).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
