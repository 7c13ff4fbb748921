import type { RateLimitOptions } from '@fastify/rate-limit';

/** A per-IP limit of `max` requests a minute for a route's `config.rateLimit`; 0 turns it off. */
export const perMinute = (max: number): RateLimitOptions | false => (max > 0 ? { max, timeWindow: 60_000 } : false);
