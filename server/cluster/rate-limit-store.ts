import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** The database's clock in epoch milliseconds: every node counts windows by the same clock. */
const dbNow = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * Counts one hit under `key` in a fixed window of `windowMs`, as @fastify/rate-limit's in-memory
 * store does, in one statement: a window that has ended starts again at 1.
 */
async function hit(db: Db, key: string, windowMs: number): Promise<Counted> {
  const { rows } = await sql<{ hits: number; ttl: number }>`
    insert into rate_limit_hits as r (key, hits, reset_at) values (${key}, 1, ${dbNow} + ${windowMs})
    on conflict (key) do update set
      hits = case when r.reset_at <= ${dbNow} then 1 else r.hits + 1 end,
      reset_at = case when r.reset_at <= ${dbNow} then ${dbNow} + ${windowMs} else r.reset_at end
    returning hits, (reset_at - ${dbNow})::int as ttl`.execute(db);
  const row = rows[0];
  return { current: Number(row?.hits ?? 1), ttl: Math.max(0, Number(row?.ttl ?? windowMs)) };
}

async function peek(db: Db, key: string): Promise<Counted> {
  const { rows } = await sql<{ hits: number; ttl: number }>`
    select hits, (reset_at - ${dbNow})::int as ttl from rate_limit_hits where key = ${key} and reset_at > ${dbNow}`.execute(db);
  const row = rows[0];
  return row ? { current: Number(row.hits), ttl: Number(row.ttl) } : { current: 0, ttl: 0 };
}

const answer = (promise: Promise<Counted>, callback: Callback) =>
  promise.then(
    (counted) => callback(null, counted),
    (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
  );

/**
 * @fastify/rate-limit's store for several servers on one PostgreSQL: the counters live in the
 * rate_limit_hits table, so a limit of 20 a minute is 20 for the whole site, not 20 per node.
 * Each route's limit counts under its own prefix, as the library's own stores do.
 */
export function sharedRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class SharedStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      void answer(hit(db, this.prefix + key, timeWindow), callback);
    }

    read(key: string, callback: Callback): void {
      void answer(peek(db, this.prefix + key), callback);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The library hands over the route's limit settings, the route itself under routeInfo
      // (empty for limits made with createRateLimit, whose keys name themselves).
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new SharedStore(routeOptions, route.url ? `${String(route.method)}${String(route.url)}-` : '');
    }
  }
  return SharedStore;
}

/** Counters whose window has ended (the housekeeping job removes them). */
export async function deleteEndedWindows(db: Executor): Promise<number> {
  const result = await sql`delete from rate_limit_hits where reset_at <= ${dbNow}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Where @fastify/rate-limit counts: Redis when REDIS_URL is set (the library's own Redis store),
 * else the database on PostgreSQL (several nodes may share it), else the process's memory (SQLite:
 * one server). Either shared store failing makes the limited request fail rather than go unlimited.
 */
export async function rateLimitStorage(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl' | 'databaseUrl'>,
  db: Db,
): Promise<Partial<RateLimitPluginOptions>> {
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(config.redisUrl, { connectTimeout: 5_000, maxRetriesPerRequest: 1 });
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'Redis (rate limits) is unreachable'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    return { redis, nameSpace: 'tapedeck-rate:' };
  }
  if (config.databaseUrl) return { store: sharedRateLimitStore(db) };
  return {};
}
