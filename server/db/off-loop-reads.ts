import path from 'node:path';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import { Piscina } from 'piscina';
import type { Database, Db, DbOptions } from './index.js';
import type { Funnel } from '../../common/api/funnels.js';
import type { Tally } from '../../common/funnels.js';
import type { ReadTask, ReadWorkerData } from './read-worker.js';
import { workerScript } from '../worker-script.js';

// Where heavy owner reads (funnel results, filtered heatmaps, long insights, the list by a funnel)
// run: never on the event loop, never past their time budget.
//
// Why worker threads: better-sqlite3 runs a query synchronously on the calling thread, so a 300 ms
// SELECT is 300 ms in which no other request is answered, and slicing the JavaScript cannot split
// one statement. On PostgreSQL the query runs elsewhere, but parsing tens of thousands of rows,
// and the garbage they leave, still held the loop for hundreds of milliseconds. So a funnel's
// tally is computed whole in a worker thread (heavy-read slots = threads) with its own connection
// — read-only to the SQLite file (WAL lets it read beside the server's writes), or a PostgreSQL
// connection whose statement_timeout is the budget — and only the small tally comes back. The
// other heavy reads keep their JavaScript here (a few thousand rows at most, in slices:
// server/http/heavy-reads.ts) and send their SELECTs off the loop: to the worker on SQLite, to a
// pool of their own with the same statement_timeout on PostgreSQL. A read past its budget has its
// worker ended (piscina starts another) or its statement cancelled (SQLSTATE 57014).

/** Thrown by a read that ran past its budget (its worker was ended, or PostgreSQL cancelled it). */
export class ReadOverBudget extends Error {
  constructor() {
    super('heavy read over its time budget');
  }
}

/** Whether an error is PostgreSQL's cancel of a statement over statement_timeout (query_canceled). */
const isStatementTimeout = (error: unknown) =>
  (error as { code?: unknown }).code === '57014' || /canceling statement due to statement timeout/.test((error as Error).message ?? '');

export interface OffLoopReads {
  /** A Kysely for one read's SELECTs, run off the loop and given up once `budget` aborts. */
  reader(budget: AbortSignal): Db;
  /** A funnel's tally of the campaign's sessions started in [from, to), counted in a worker thread. */
  funnelTally(campaignId: string, funnel: Funnel, from: number, to: number, budget: AbortSignal): Promise<Tally>;
  /** Starts a worker (and bundles its code) ahead of the first read, whose budget would pay for it. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export function openOffLoopReads(options: DbOptions, slots: number, budgetMs: number): OffLoopReads {
  const postgres = options.databaseUrl ? { connectionString: options.databaseUrl, ...options.pgOptions, statement_timeout: budgetMs } : undefined;
  const workerData: ReadWorkerData = postgres ? { postgres } : { file: path.join(options.dataDir, 'tapedeck.sqlite') };
  let pool: Promise<Piscina> | null = null;
  const start = () =>
    (pool ??= workerScript(new URL('./read-worker.ts', import.meta.url), ['better-sqlite3', 'pg']).then(
      (filename) => new Piscina({ filename, minThreads: 1, maxThreads: slots, idleTimeout: 60_000, workerData }),
    ));
  const run = async (task: ReadTask, budget: AbortSignal): Promise<unknown> => {
    try {
      return await (await start()).run(task, { signal: budget });
    } catch (error) {
      if (budget.aborted || isStatementTimeout(error)) throw new ReadOverBudget();
      throw error;
    }
  };
  const postgresDb = postgres && new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...postgres, max: slots }) }) });
  return {
    reader: (budget) =>
      postgresDb ??
      new Kysely<Database>({
        dialect: workerDialect(async (query) => ({ rows: (await run({ kind: 'query', sql: query.sql, parameters: query.parameters }, budget)) as unknown[] })),
      }),
    funnelTally: async (campaignId, funnel, from, to, budget) => (await run({ kind: 'funnelTally', campaignId, funnel, from, to }, budget)) as Tally,
    warm: async () => {
      await start();
    },
    close: async () => {
      await (await pool)?.destroy();
      pool = null;
      await postgresDb?.destroy();
    },
  };
}

/** The cancel of a statement over its budget on the PostgreSQL pool above, as ReadOverBudget. */
export function overBudget(error: unknown): boolean {
  return error instanceof ReadOverBudget || isStatementTimeout(error);
}

/** A Kysely dialect (SQLite's SQL) whose every query is `run` elsewhere; no transactions, no streams. */
function workerDialect(run: (query: CompiledQuery) => Promise<QueryResult<unknown>>) {
  const connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery) => run(query) as Promise<QueryResult<R>>,
    streamQuery: () => {
      throw new Error('a heavy read does not stream');
    },
  };
  const noTransactions = () => Promise.reject(new Error('a heavy read runs no transaction'));
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => driver,
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
