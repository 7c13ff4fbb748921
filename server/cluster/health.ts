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

/**
 * For load balancers and orchestrators: GET /healthz says the process answers (restart it if
 * not); GET /readyz says it can serve (database reachable, schema up to date, storage not full,
 * not shutting down), else 503 with the reason.
 */
export async function registerHealth(app: FastifyInstance, db: Db, diskGuard: DiskGuard): Promise<void> {
  const schema = { response: { 200: Health, 503: Health } };
  app.get('/healthz', { schema }, async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ ok: true }));
  app.get('/readyz', { schema }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const reason = await notReadyBecause(app, db, diskGuard);
    return reason ? reply.status(503).send({ ok: false, reason }) : reply.send({ ok: true });
  });
}
