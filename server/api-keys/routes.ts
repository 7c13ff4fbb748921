import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { Ok } from '../../common/api/shared.js';
import { ApiKeyBody, ApiKeyList, ApiKeyParams, ApiKeyQuery, CreatedApiKey } from '../../common/api/api-keys.js';
import { API_KEYS_PER_WORKSPACE } from '../../common/api-keys.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { badRequest, HttpError, notFound, requiredText } from '../http/errors.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { minuteLimit } from '../http/rate-limit.js';
import { workspaceAccess } from '../teams/access.js';
import { audit } from '../teams/audit.js';
import { personalWorkspace } from '../teams/repository.js';
import { insertApiKey, keysOf, liveKey, liveKeyCount, revokeKey } from './repository.js';

/** Keys one account may make or revoke a minute. */
const CHANGES_PER_USER = 30;
const API_KEY_NOT_FOUND = 'API key not found';

/** A workspace's API keys (issue 38; docs/api.md, "API keys"): made, listed and revoked by those with api_keys.manage, never with a key. */
export async function registerApiKeys(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    apiKeyRoutes(scope, ctx);
  });
}

function apiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = ctx;
  const preHandler = requireUser(ctx);
  const config = { permission: 'api_keys.manage' as const };
  const changeLimit = minuteLimit(app, 'api-key-change-user', CHANGES_PER_USER);
  /** The workspace asked for, else the caller's personal one, for api_keys.manage (404 for a non-member, 403 without it). */
  const managed = async (request: FastifyRequest, workspaceId: string | undefined) =>
    workspaceAccess(db, request, workspaceId ?? (await personalWorkspace(db, currentUserId(request))));

  api.post('/api/v1/api-keys', { config, preHandler, schema: { body: ApiKeyBody, response: { 201: CreatedApiKey } } }, async (request, reply) => {
    const userId = currentUserId(request);
    await changeLimit(request, reply, userId);
    const { workspaceId } = await managed(request, request.body.workspace_id);
    const name = requiredText(request.body.name, 'name must not be empty');
    const expiresAt = request.body.expires_at ?? null;
    if (expiresAt !== null && expiresAt <= Date.now()) throw badRequest('expires_at must be in the future');
    const made = await db.transaction().execute(async (trx) => {
      if ((await liveKeyCount(trx, workspaceId)) >= API_KEYS_PER_WORKSPACE)
        throw new HttpError(409, `A workspace holds at most ${API_KEYS_PER_WORKSPACE} API keys: revoke one first`);
      const key = await insertApiKey(trx, { workspaceId, createdBy: userId, name, scopes: request.body.scopes, expiresAt });
      await audit(trx, request, workspaceId, {
        action: 'api_key.created',
        target: `api_key:${key.prefix}`,
        after: { name, scopes: request.body.scopes, expires_at: expiresAt },
      });
      return key;
    });
    reply.header('cache-control', 'no-store');
    return reply.status(201).send({ data: made });
  });

  api.get('/api/v1/api-keys', { config, preHandler, schema: { querystring: ApiKeyQuery, response: { 200: ApiKeyList } } }, async (request, reply) => {
    const { workspaceId } = await managed(request, request.query.workspace_id);
    reply.header('cache-control', 'private, no-store');
    return { data: await keysOf(db, workspaceId) };
  });

  // Revoked at once: the next request with the key reads its row and is refused (api-keys/authenticate.ts).
  api.delete('/api/v1/api-keys/:apiKeyId', { config, preHandler, schema: { params: ApiKeyParams, response: { 200: Ok } } }, async (request, reply) => {
    await changeLimit(request, reply, currentUserId(request));
    const key = await liveKey(db, request.params.apiKeyId.toLowerCase());
    if (!key) throw notFound(API_KEY_NOT_FOUND);
    await workspaceAccess(db, request, key.workspace_id);
    await db.transaction().execute(async (trx) => {
      if (!(await revokeKey(trx, key.id))) throw notFound(API_KEY_NOT_FOUND);
      await audit(trx, request, key.workspace_id, { action: 'api_key.revoked', target: `api_key:${key.prefix}`, before: { name: key.name } });
    });
    return { ok: true as const };
  });
}
