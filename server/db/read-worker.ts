import { workerData } from 'node:worker_threads';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import type { Funnel } from '../../common/api/funnels.js';
import type { Tally } from '../../common/funnels.js';
import { tallyOf } from '../funnels/repository.js';
import { plainRead } from './sliced-read.js';

// A heavy read's worker thread (server/db/off-loop-reads.ts), with its own connection: on SQLite
// a read-only one to the file (WAL lets it read beside the server's writes), on PostgreSQL a pool
// of one whose statements stop at the read's budget. What it computes never touches the event loop.

export interface ReadWorkerData {
  /** SQLite's file, or PostgreSQL's pool settings. */
  file?: string;
  postgres?: pg.PoolConfig;
}

const { file, postgres } = workerData as ReadWorkerData;

function open(): Kysely<Database> {
  if (postgres) return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...postgres, max: 1 }) }) });
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

const db = open();
const read = plainRead(db);

export type ReadTask =
  { kind: 'query'; sql: string; parameters: readonly unknown[] } | { kind: 'funnelTally'; campaignId: string; funnel: Funnel; from: number; to: number };

/** One task in, its result out: a query's rows (SQLite, read-only), or a whole funnel's tally (small). */
export default async function run(task: ReadTask): Promise<unknown[] | Tally> {
  if (task.kind === 'funnelTally') return tallyOf(read, task.campaignId, task.funnel, task.from, task.to);
  return (await db.executeQuery(CompiledQuery.raw(task.sql, [...task.parameters]))).rows;
}
