// A real Tapedeck server for the bench: buildApp(loadConfig(...)) on 127.0.0.1 and a free port,
// with its own SQLite directory or a fresh PostgreSQL schema, torn down afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Db } from '../../server/db/index.js';
import { freePort } from '../../tests/helpers/server.js';

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

async function withPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function startBenchServer(options: BenchServerOptions = {}): Promise<BenchServer> {
  const kind = options.database ?? 'SQLite';
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-bench-'));
  const schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
  if (kind === 'PostgreSQL') {
    try {
      await withPostgres(postgresUrl, `create schema ${schema}`);
    } catch (error) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`PostgreSQL at ${postgresUrl} is not reachable (set BENCH_DATABASE_URL): ${String(error)}`);
    }
  }
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    DIST_DIR: path.resolve(import.meta.dirname, '..', '..', 'dist'),
    ...(kind === 'PostgreSQL' ? { DATABASE_URL: postgresUrl } : {}),
  });
  const app = await buildApp(config, kind === 'PostgreSQL' ? { db: { pgOptions: { options: `-c search_path=${schema}`, max: 10 } } } : {});
  await options.beforeListen?.(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    config,
    db: app.ctx.db,
    kind,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (kind === 'PostgreSQL') await withPostgres(postgresUrl, `drop schema if exists ${schema} cascade`);
    },
  };
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
