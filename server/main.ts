import type { FastifyInstance } from 'fastify';
import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { StorageError } from './storage/data-dir.js';
import { startDraining } from './cluster/health.js';

/** Stops accepting, lets requests in flight finish (ended after the grace period), then exits. */
function stopOnSignals(app: FastifyInstance, graceMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.warn(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    startDraining(app);
    console.log(`${signal}: finishing requests in flight (at most ${graceMs / 1000} s), then stopping`);
    const force = setTimeout(() => {
      console.warn(`requests still running after ${graceMs / 1000} s: ending them`);
      app.server.closeAllConnections();
    }, graceMs);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  let app: FastifyInstance;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof StorageError) {
      console.error(`Storage error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  stopOnSignals(app, config.limits.shutdownGraceMs);
  await app.listen({ port: config.port, host: config.host });
  const database = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  console.log(`Tapedeck is running at ${config.publicUrl}  (listening on ${config.host}:${config.port}, ${database}, sign-in: ${config.signIn.kind})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
