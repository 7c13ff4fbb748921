import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { isPostgres, type Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { deleteEndedWindows } from './rate-limit-store.js';
import { sweepExpiredRecordings } from '../campaigns/retention.js';
import { deleteExpiredTokens } from '../auth/refresh-tokens.js';
import { deleteExpiredSignIns } from '../auth/sign-ins.js';
import { sweepAllEndedSessions } from '../recordings/bot-sweep.js';
import { drainAllUnfed } from '../heatmaps/unfed.js';
import { sweepAuditLog } from '../teams/audit.js';
import { sweepDeliveries } from '../webhooks/repository.js';

/**
 * Runs `job` unless another server on the same PostgreSQL is running the job of that name right
 * now (a transaction-scoped advisory lock, released when the job's transaction ends, however it
 * ends). On SQLite there is one server: it always runs. Answers whether this node ran it.
 */
export async function oneNodeAtATime(db: Db, name: string, job: (db: Executor) => Promise<void>): Promise<boolean> {
  if (!isPostgres(db)) {
    await job(db);
    return true;
  }
  return db.transaction().execute(async (trx) => {
    // Keyed by schema too: several deployments (or test runs) may share one database.
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtext(current_schema() || ':' || ${name})) as locked`.execute(trx);
    if (!rows[0]?.locked) return false;
    await job(trx);
    return true;
  });
}

/** What housekeeping keeps for how long: audit entries AUDIT_RETENTION_DAYS (0: forever). */
export interface Keeping {
  auditRetentionDays: number;
}
const KEEPING: Keeping = { auditRetentionDays: 365 };

/**
 * Records that can no longer be used: the built-in provider's expired ones, expired refresh tokens
 * and sign-ins, ended rate windows; audit entries past their retention; webhook deliveries done a month ago.
 */
export async function housekeeping(db: Executor, keeping: Keeping = KEEPING, now = Date.now()): Promise<void> {
  await db.deleteFrom('oidc_models').where('expires_at', '<', now).execute();
  await deleteExpiredTokens(db);
  await deleteExpiredSignIns(db);
  if (isPostgres(db)) await deleteEndedWindows(db);
  await sweepAuditLog(db, keeping.auditRetentionDays, now);
  await sweepDeliveries(db, now);
}

const HOUSEKEEPING_EVERY_MS = 10 * 60 * 1000;

/**
 * Deletes recordings past their campaign's retention, one node at a time. The lock's transaction
 * only holds the lock: the sweep deletes in its own short transactions so ingest is never blocked.
 */
export function sweepRecordings(db: Db, now?: number): Promise<boolean> {
  return oneNodeAtATime(db, 'retention', async () => void (await sweepExpiredRecordings(db, { now })));
}

/**
 * What stored batches leave to settle, one node at a time: sessions that ended without human
 * input marked bots (reads of one campaign sweep it first too), and what deleted sessions fed
 * the heatmaps taken off. Each in its own short transactions, as the retention sweep.
 */
export function settleStoredBatches(db: Db, now?: number): Promise<boolean> {
  return oneNodeAtATime(db, 'stored-batches', async () => {
    await sweepAllEndedSessions(db, now);
    await drainAllUnfed(db);
  });
}

/** When the jobs first run after a start: soon, so a server restarted more often than every ten minutes still sweeps. */
const FIRST_RUN_AFTER_MS = 60 * 1000;

/** Starts the periodic jobs (first a minute after the start, then every ten minutes); they stop when the server closes. */
export function startJobs(
  app: FastifyInstance,
  db: Db,
  timing = { firstAfterMs: FIRST_RUN_AFTER_MS, everyMs: HOUSEKEEPING_EVERY_MS },
  keeping: Keeping = KEEPING,
): void {
  const run = async () => {
    await oneNodeAtATime(db, 'housekeeping', (trx) => housekeeping(trx, keeping)).catch((error: unknown) =>
      app.log.warn({ err: error }, 'housekeeping failed'),
    );
    await sweepRecordings(db).catch((error: unknown) => app.log.warn({ err: error }, 'retention sweep failed'));
    await settleStoredBatches(db).catch((error: unknown) => app.log.warn({ err: error }, 'bot sweep or heat drain failed'));
  };
  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    void run();
    every = setInterval(run, timing.everyMs);
    every.unref();
  }, timing.firstAfterMs);
  first.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
