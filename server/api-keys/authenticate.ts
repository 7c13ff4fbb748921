import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { HttpError } from '../http/errors.js';
import type { ApiKeyScope } from '../../common/api-keys.js';
import { keyByHash, keyHash, LAST_USED_EVERY_MS, touchKey } from './repository.js';
import { routeScope } from './scopes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key the request came with (null for a signed-in caller); set with userId, its maker. */
    apiKey: { id: string; prefix: string; workspaceId: string } | null;
  }
}

const MINUTE = 60_000;
/** "Bearer td_…" (common/api-keys.ts API_KEY_PREFIX): another Authorization (a proxy's Basic) is not ours to read. */
const BEARER = /^Bearer\s+(td_\S*)$/i;
/** Longer than any key this server makes: refused before it is hashed. */
const KEY_MAX = 100;

export const KEY_NOT_TAKEN = 'API keys are not accepted here: sign in to use this';
export const missingScope = (scope: ApiKeyScope) => `This API key lacks the scope ${scope}`;

/** The key in the request's Authorization header, if it carries one of ours. */
const presentedKey = (request: FastifyRequest): string | undefined => BEARER.exec(request.headers.authorization ?? '')?.[1];

/** What refuses a presented key before its route's scope is asked, or undefined when it may act. */
function refusal(key: Awaited<ReturnType<typeof keyByHash>>, now: number): string | undefined {
  if (!key) return 'Unknown API key';
  if (key.revokedAt !== null) return 'This API key was revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'This API key has expired';
  if (!key.member) return "This API key's maker is no longer a member of its workspace";
  return undefined;
}

/**
 * Authenticates "Authorization: Bearer td_…" on every /api/v1 route, once, before the route reads
 * anything: a route that takes no key (scopes.ts) refuses it (403); an unknown, revoked or expired
 * key, or one whose maker left the workspace, is refused (401) at once, since each request reads
 * the key's row; then the key's rate limit is counted (RateLimit-* headers; 429 with Retry-After
 * past it) and its scope asked (403). The request then acts as the key's maker: the route's
 * permission is asked of their role (teams/access.ts), in the key's workspace only.
 */
export function authenticateApiKeys(app: FastifyInstance, db: Db, perMinute: number): void {
  app.decorateRequest('apiKey', null);
  const limit =
    perMinute > 0 ? app.createRateLimit({ max: perMinute, timeWindow: MINUTE, keyGenerator: (request) => `api-key:${request.apiKey?.id}` }) : undefined;
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/v1/')) return;
    const presented = presentedKey(request);
    if (presented === undefined) return;
    const scope = routeScope(request.method, url);
    if (scope === null) throw new HttpError(403, KEY_NOT_TAKEN);
    const now = Date.now();
    const key = presented.length <= KEY_MAX ? await keyByHash(db, keyHash(presented)) : undefined;
    const refused = refusal(key, now);
    if (refused || !key) throw new HttpError(401, refused ?? 'Unknown API key');
    request.apiKey = { id: key.id, prefix: key.prefix, workspaceId: key.workspaceId };
    if (limit) await counted(limit, request, reply, perMinute);
    if (!key.scopes.includes(scope)) throw new HttpError(403, missingScope(scope));
    request.userId = key.createdBy;
    if (key.lastUsedAt === null || key.lastUsedAt <= now - LAST_USED_EVERY_MS) await touchKey(db, key.id, now);
  });
}

/** Counts the request against its key's limit and says where it stands; 429 with Retry-After past it. */
async function counted(limit: ReturnType<FastifyInstance['createRateLimit']>, request: FastifyRequest, reply: FastifyReply, max: number): Promise<void> {
  const result = await limit(request);
  const remaining = result.isAllowed ? max : result.remaining;
  const reset = result.isAllowed ? 60 : Math.max(1, result.ttlInSeconds);
  reply.header('ratelimit-limit', max).header('ratelimit-remaining', remaining).header('ratelimit-reset', reset);
  if (!result.isAllowed && result.isExceeded) throw new HttpError(429, `Too many requests with this API key: try again in ${reset} s`, reset);
}
