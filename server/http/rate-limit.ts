import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

const MINUTE = 60_000;

/** What a limit needs of the reply: somewhere to say Retry-After. */
export type LimitReply = { header(name: string, value: number): unknown };

/** Which key a limit counts under, for the request being checked. */
const keys = new WeakMap<FastifyRequest, string>();

/**
 * A per-minute limit counted in @fastify/rate-limit's store, checked from code where the key is
 * only known once the body has been read (a session id, "is this session new?"). Over the
 * limit: 429 with Retry-After. A max of 0 turns the limit off.
 */
export function minuteLimit(app: FastifyInstance, name: string, max: number) {
  if (max === 0) return async () => undefined;
  const check = app.createRateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:${keys.get(request)}` });
  return async (request: FastifyRequest, reply: LimitReply, key: string): Promise<void> => {
    keys.set(request, key);
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      const seconds = Math.max(1, result.ttlInSeconds);
      reply.header('retry-after', seconds);
      throw new HttpError(429, `Too many requests: try again in ${seconds} s`);
    }
  };
}
