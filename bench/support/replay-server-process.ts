// The server of the maximum-size retrieval figure, in a process of its own so that its RSS is
// the server's alone, started fresh for each measurement on a data directory the figure seeded
// (so neither seeding nor an earlier measurement shapes its heap). Answers "idle" with its RSS
// after a full garbage collection (run with --expose-gc).
import { startServer } from '../../tests/helpers/server.js';

export interface ReplayServerSetup {
  dataDir: string;
  sessionSecret: string;
}

async function main(setup: ReplayServerSetup): Promise<void> {
  const server = await startServer(
    (port) => ({ DATA_DIR: setup.dataDir, SESSION_SECRET: setup.sessionSecret, PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'silent' }),
    { databaseUrl: null },
  );
  process.on('disconnect', () => {
    void server.close().finally(() => process.exit(0));
  });
  process.on('message', (message: string) => {
    if (message !== 'idle') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    process.send?.({ rss: process.memoryUsage().rss });
  });
  process.send?.({ ready: server.url });
}

process.once('message', (setup: ReplayServerSetup) => {
  main(setup).catch((error: unknown) => {
    process.send?.({ error: String(error instanceof Error ? error.stack : error) });
    process.exit(1);
  });
});
