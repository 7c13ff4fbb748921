// A real Tapedeck server for the bench: the tests' server helper on 127.0.0.1 and a free port,
// with its own SQLite directory or a fresh PostgreSQL schema, torn down afterwards.
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../server/config.js';
import type { Db } from '../../server/db/index.js';
import { startServer } from '../../tests/helpers/server.js';
import { eachPart, type Row } from '../lib.js';

/** PostgreSQL for the figures that compare both databases (BENCH_DATABASE_URL overrides). */
export const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type DatabaseKind = 'SQLite' | 'PostgreSQL';

export interface BenchServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  db: Db;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export interface BenchServerOptions {
  database?: DatabaseKind;
  /** Routes only the bench needs (a no-op baseline), registered before the server listens. */
  beforeListen?: (app: FastifyInstance) => void | Promise<void>;
}

/** The tests' real server (tests/helpers/server.ts) on the database the figure asks for. */
export async function startBenchServer(options: BenchServerOptions = {}): Promise<BenchServer> {
  const kind = options.database ?? 'SQLite';
  const server = await startServer(
    (port) => ({
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      DIST_DIR: path.resolve(import.meta.dirname, '..', '..', 'dist'),
      // The load comes from one address and measures throughput, not the limits on a sender.
      RATE_NEW_SESSIONS_PER_IP: '0',
      RATE_NEW_SESSIONS_PER_CAMPAIGN: '0',
      RATE_BATCHES_PER_SESSION: '0',
      RATE_BATCHES_PER_IP: '0',
      RATE_INGEST_MB_PER_IP: '0',
      RATE_INGEST_MB_PER_CAMPAIGN: '0',
    }),
    { databaseUrl: kind === 'PostgreSQL' ? postgresUrl : null, beforeListen: options.beforeListen, poolMax: 10 },
  );
  return { ...server, kind };
}

/** A figure measured on SQLite, then on PostgreSQL; a part that fails is named by its database. */
export function eachDatabase(figureFor: (kind: DatabaseKind) => Promise<Row[]>): Promise<Row[]> {
  return eachPart<DatabaseKind>(['SQLite', 'PostgreSQL'], figureFor, (kind) => kind);
}

/** Runs `use` with a fresh server and always closes it. */
export async function withServer<T>(options: BenchServerOptions, use: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await startBenchServer(options);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}
