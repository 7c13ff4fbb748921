import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the thread copies the WAL back into the database file. */
const CHECKPOINT_EVERY_MS = 1000;
/**
 * The request thread's own mark, in WAL pages (4 KB): far past what a second of writes adds, so
 * it only checkpoints should the thread have stopped. SQLite's default is 1000.
 */
export const BACKSTOP_PAGES = 10_000;

// Plain CommonJS run by the worker itself (eval): it needs nothing of ours but better-sqlite3.
const THREAD = `
const { workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = 0');
setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or gone: the next turn tries again
  }
}, workerData.everyMs);
`;

/**
 * SQLite in WAL mode copies the log back into the database (a checkpoint, with an fsync) in
 * whichever commit takes the log past 1000 pages: on ingest's request thread that stopped the
 * event loop for about 10 ms every fiftieth group commit, half of all the time commits took.
 * A thread of its own checkpoints instead, once a second, PASSIVE (it never waits for or blocks
 * a reader or a writer); the request thread keeps a far later mark as a backstop. Returns stop.
 */
export function startCheckpointer(file: string): () => void {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS } });
  worker.unref();
  // A thread that fails leaves the backstop to checkpoint; nothing else depends on it.
  worker.on('error', () => undefined);
  return () => void worker.terminate();
}
