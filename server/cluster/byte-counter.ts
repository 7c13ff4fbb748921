import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../db/index.js';
import { RecentlyUsed } from '../recently-used.js';

/** What a key has counted in its current window, and how long that window still runs. */
export interface Counted {
  total: number;
  ttlMs: number;
}

/**
 * Adds amounts (not hits) under a key in fixed windows: the ingest byte budgets. It counts where
 * @fastify/rate-limit counts (rate-limit-store.ts): Redis, else PostgreSQL's rate_limit_hits,
 * else this process (SQLite: one server), so a budget holds for the whole site.
 */
export interface ByteCounter {
  add(key: string, amount: number, windowMs: number): Promise<Counted>;
}

/** rate_limit_hits.hits is a 32-bit integer: a total saturates below it rather than fail. */
const MAX_TOTAL = 2_000_000_000;
const dbNow = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** One statement: a window that has ended starts again at `amount`. */
function postgresCounter(db: Db): ByteCounter {
  return {
    async add(key, amount, windowMs) {
      const { rows } = await sql<{ hits: number; ttl: number }>`
        insert into rate_limit_hits as r (key, hits, reset_at) values (${key}, ${amount}, ${dbNow} + ${windowMs})
        on conflict (key) do update set
          hits = case when r.reset_at <= ${dbNow} then ${amount} else least(r.hits + ${amount}, ${MAX_TOTAL}) end,
          reset_at = case when r.reset_at <= ${dbNow} then ${dbNow} + ${windowMs} else r.reset_at end
        returning hits, (reset_at - ${dbNow})::int as ttl`.execute(db);
      const row = rows[0];
      return { total: Number(row?.hits ?? amount), ttlMs: Math.max(0, Number(row?.ttl ?? windowMs)) };
    },
  };
}

/** INCRBY, with the window's expiry set by the first amount of the window. */
const REDIS_ADD = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {total, ttl}`;

function redisCounter(redis: Redis, nameSpace: string): ByteCounter {
  return {
    async add(key, amount, windowMs) {
      const [total, ttl] = (await redis.eval(REDIS_ADD, 1, nameSpace + key, amount, windowMs)) as [number, number];
      return { total: Number(total), ttlMs: Number(ttl) };
    },
  };
}

/** At most this many keys in memory; a key dropped early only starts its window again. */
const MEMORY_KEYS = 100_000;

function memoryCounter(now: () => number): ByteCounter {
  const windows = new RecentlyUsed<string, { total: number; resetAt: number }>(MEMORY_KEYS);
  return {
    async add(key, amount, windowMs) {
      const at = now();
      const kept = windows.get(key);
      const window =
        kept && kept.resetAt > at ? { total: Math.min(kept.total + amount, MAX_TOTAL), resetAt: kept.resetAt } : { total: amount, resetAt: at + windowMs };
      windows.set(key, window);
      return { total: window.total, ttlMs: window.resetAt - at };
    },
  };
}

/** The counter for the rate-limit storage rateLimitStorage chose: its Redis, the database on PostgreSQL, or memory. */
export function byteCounter(storage: { redis?: unknown }, db: Db, postgres: boolean, now: () => number = Date.now): ByteCounter {
  if (storage.redis) return redisCounter(storage.redis as Redis, 'tapedeck-bytes:');
  if (postgres) return postgresCounter(db);
  return memoryCounter(now);
}
