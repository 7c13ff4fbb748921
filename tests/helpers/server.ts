import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import type { Db } from '../../server/db/index.js';

/**
 * A real Tapedeck server for tests, on 127.0.0.1 and a free port, with its own database:
 * a fresh SQLite file, or — when TEST_DATABASE_URL is set — a fresh PostgreSQL schema.
 */
export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  db: Db;
  /** Stops the server (as close does, keeping its database and data directory) and starts it again on the same port: `app` and `db` are the new ones. */
  restart(): Promise<void>;
  /** Another server on the same database and settings, not listening: a second node (on PostgreSQL). The caller closes it. */
  twin(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

/** A free port on 127.0.0.1 (also used by the bench). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** The database: TEST_DATABASE_URL by default; a postgres:// URL, or null for SQLite. */
  databaseUrl?: string | null;
  /** Routes a caller needs beside the product's (the bench's no-op baseline), added before listening. */
  beforeListen?: (app: FastifyInstance) => void | Promise<void>;
  poolMax?: number;
  /**
   * Serve a private copy of dist/ (removed on close), so a rebuild of dist/ while a browser test
   * runs cannot pull hashed chunks from under its pages, and the test may change its copy.
   */
  privateDist?: boolean;
  /** More buildApp options (short timeouts, a log stream). */
  build?: Omit<BuildOptions, 'db'>;
}

/** How long close() lets open connections finish before ending them. */
const CLOSE_GRACE_MS = 5000;

/** `env` may depend on the port the server gets (e.g. a PUBLIC_URL on 127.0.0.1). */
export async function startServer(
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
  options: StartOptions = {},
): Promise<TestServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-test-'));
  const distCopy = options.privateDist ? fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-dist-')) : undefined;
  if (distCopy) fs.cpSync(path.resolve('dist'), distCopy, { recursive: true });
  const databaseUrl = options.databaseUrl === undefined ? process.env.TEST_DATABASE_URL : (options.databaseUrl ?? undefined);
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    try {
      await client.connect();
      await client.query(`create schema ${schema}`);
    } catch (error) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (distCopy) fs.rmSync(distCopy, { recursive: true, force: true });
      throw new Error(`PostgreSQL at ${databaseUrl} is not reachable: ${String(error)}`, { cause: error });
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(distCopy ? { DIST_DIR: distCopy } : {}),
    ...(typeof env === 'function' ? env(port) : env),
  });
  const pgOptions = { options: `-c search_path=${schema}`, max: options.poolMax ?? 5 };
  const built = () => buildApp(config, { ...options.build, ...(databaseUrl ? { db: { pgOptions } } : {}) });
  const listening = async () => {
    const app = await built();
    await options.beforeListen?.(app);
    await app.listen({ port, host: '127.0.0.1' });
    return app;
  };
  // As the server's own SIGTERM does: connections a test left open (a body never read) are
  // ended after a grace period, so closing cannot wait on them forever.
  const stop = async (app: FastifyInstance) => {
    const force = setTimeout(() => {
      console.warn(`test server ${port}: connections still open ${CLOSE_GRACE_MS} ms after close; ending them`);
      app.server.closeAllConnections();
    }, CLOSE_GRACE_MS);
    try {
      await app.close();
    } finally {
      clearTimeout(force);
    }
  };
  const app = await listening();
  const server: TestServer = {
    app,
    url: `http://127.0.0.1:${port}`,
    config,
    db: app.ctx.db,
    async restart() {
      await stop(server.app);
      server.app = await listening();
      server.db = server.app.ctx.db;
    },
    async twin() {
      const app = await built();
      await app.ready();
      return app;
    },
    async close() {
      await stop(server.app);
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (distCopy) fs.rmSync(distCopy, { recursive: true, force: true });
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
  };
  return server;
}
