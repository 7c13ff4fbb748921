import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_sessions_by_verdict.js';
import * as m0003 from './migrations/0003_chunks_sorted.js';

export type Db = Kysely<Database>;
export type { Database };

// int8 (bigint) columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number(value));

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_sessions_by_verdict': m0002,
  '0003_chunks_sorted': m0003,
};

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** Extra pg pool settings (tests pass a per-run schema through `options`). */
  pgOptions?: pg.PoolConfig;
}

/** Opens the configured database: PostgreSQL when a URL is given, else SQLite in WAL mode. */
export function openDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, ...options.pgOptions });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  // The data directory holds visitors' recordings and our secrets: owner-only.
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const database = new SQLite(path.join(options.dataDir, 'tapedeck.sqlite'));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Brings the schema up to date; Kysely's migrator takes a lock, so nodes may start together. */
export async function migrate(db: Db): Promise<void> {
  // Kysely looks for its own tables in every schema unless told which one: name ours, so a second
  // database schema on the same server (tests, other tenants) cannot hide missing tables.
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
