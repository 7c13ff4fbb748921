import { sql } from 'kysely';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { pendingMigrations, type Db } from '../db/index.js';
import type { DiskGuard } from '../storage/disk-guard.js';

const Health = Type.Object({ ok: Type.Boolean(), reason: Type.Optional(Type.String()) }, { additionalProperties: false });

/** Servers that received SIGTERM: still finishing requests, no longer wanting new ones. */
const draining = new WeakSet<FastifyInstance>();

/** From now on /readyz answers 503, so a load balancer sends new requests to other nodes. */
export function startDraining(app: FastifyInstance): void {
  draining.add(app);
}

/** Why this node should not be sent traffic now, or null when it is ready. */
async function notReadyBecause(app: FastifyInstance, db: Db, diskGuard: DiskGuard): Promise<string | null> {
  if (draining.has(app)) return 'shutting down';
  try {
    await sql`select 1`.execute(db);
  } catch {
    return 'database unreachable';
  }
  const pending = await pendingMigrations(db).catch(() => null);
  if (pending === null) return 'database migrations could not be read';
  if (pending.length > 0) return `database migrations pending: ${pending.join(', ')}`;
  if (!diskGuard.ok()) return 'storage nearly full';
  return null;
}

/** However often /readyz is asked, the database is asked at most this often (per node). */
export const READY_CHECK_MS = 1000;

/**
 * `check`'s answer, shared by every caller for `ms` after it was asked (and while it runs): an
 * open endpoint that queries the database must not let its callers set the database's load.
 */
export function sharedFor<T>(ms: number, check: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | null = null;
  return () => {
    if (!last || now() - last.at >= ms) last = { at: now(), answer: check() };
    return last.answer;
  };
}

/**
 * For load balancers and orchestrators: GET /healthz says the process answers (restart it if
 * not); GET /readyz says it can serve (database reachable, schema up to date, storage not full,
 * not shutting down), else 503 with the reason.
 */
export async function registerHealth(app: FastifyInstance, db: Db, diskGuard: DiskGuard): Promise<void> {
  const schema = { response: { 200: Health, 503: Health } };
  const readiness = sharedFor(READY_CHECK_MS, () => notReadyBecause(app, db, diskGuard));
  app.get('/healthz', { schema }, async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ ok: true }));
  app.get('/readyz', { schema }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    // Draining shows at once; the rest is checked at most once a second.
    const reason = draining.has(app) ? 'shutting down' : await readiness();
    return reason ? reply.status(503).send({ ok: false, reason }) : reply.send({ ok: true });
  });
}
