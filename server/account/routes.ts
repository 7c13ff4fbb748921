import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DeleteAccountBody, SignInList, SignInParams } from '../../common/api/account.js';
import { Ok } from '../../common/api/shared.js';
import { summariseUserAgent } from '../../common/user-agent.js';
import { confirmsAccountDeletion, WRONG_CONFIRMATION } from '../../common/account.js';
import type { AppContext } from '../context.js';
import { clearSessionCookies, currentUserId, requireUser } from '../auth/tokens.js';
import { revokeFamily, revokeUsersTokens } from '../auth/refresh-tokens.js';
import { deleteSignIns, listLiveSignIns, SIGN_IN_NOT_FOUND, userHasFamily } from '../auth/sign-ins.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { badRequest, notFound, unauthorized } from '../http/errors.js';
import { minuteLimit } from '../http/rate-limit.js';
import { deleteUserEverything, endProviderSignIns } from './repository.js';

/** Sign-outs and deletions one user may ask for per minute. */
const CHANGES_PER_USER = 30;
const DELETES_PER_USER = 5;

/**
 * The signed-in user's account: their sign-ins (devices), signing one or all of them out, and
 * deleting the account with everything in it.
 */
export async function registerAccount(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db, keys } = ctx;
  const changeLimit = minuteLimit(app, 'account-change-user', CHANGES_PER_USER);
  const deleteLimit = minuteLimit(app, 'account-delete-user', DELETES_PER_USER);
  const guarded = { preHandler: requireUser(ctx) };

  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();

    api.get(
      '/api/v1/account/sign-ins',
      { config: { access: 'account' }, preHandler: requireUser(ctx), schema: { response: { 200: SignInList } } },
      async (request, reply) => {
        const rows = await listLiveSignIns(db, currentUserId(request));
        reply.header('Cache-Control', 'no-store');
        return {
          signIns: rows.map((row) => {
            const { browser, os, device } = summariseUserAgent(row.user_agent);
            return {
              id: row.family_id,
              browser,
              os,
              device,
              signedInAt: row.created_at,
              lastUsedAt: row.last_used_at,
              current: row.family_id === request.signInId,
            };
          }),
        };
      },
    );

    // Signs one device out: its refresh token and its access token stop working at once.
    api.delete(
      '/api/v1/account/sign-ins/:id',
      { config: { access: 'account' }, ...guarded, schema: { params: SignInParams, response: { 200: Ok } } },
      async (request, reply) => {
        const userId = currentUserId(request);
        await changeLimit(request, reply, userId);
        const { id } = request.params;
        if (!(await userHasFamily(db, userId, id))) throw notFound(SIGN_IN_NOT_FOUND);
        await db.transaction().execute(async (trx) => {
          await revokeFamily(trx, id);
          await deleteSignIns(trx, { userId, familyId: id });
          await endProviderSignIns(trx, userId);
        });
        if (id === request.signInId) clearSessionCookies(keys, reply);
        return { ok: true as const };
      },
    );

    api.post(
      '/api/v1/account/sign-out-everywhere',
      { config: { access: 'account' }, ...guarded, schema: { response: { 200: Ok } } },
      async (request, reply) => {
        const userId = currentUserId(request);
        await changeLimit(request, reply, userId);
        await db.transaction().execute(async (trx) => {
          await revokeUsersTokens(trx, [userId]);
          await deleteSignIns(trx, { userId });
          await endProviderSignIns(trx, userId);
        });
        clearSessionCookies(keys, reply);
        return { ok: true as const };
      },
    );

    api.delete(
      '/api/v1/account',
      { config: { access: 'account' }, ...guarded, schema: { body: DeleteAccountBody, response: { 200: Ok } } },
      async (request, reply) => {
        const userId = currentUserId(request);
        await deleteLimit(request, reply, userId);
        await db.transaction().execute(async (trx) => {
          const user = await trx.selectFrom('users').select(['id', 'subject', 'email', 'name']).where('id', '=', userId).executeTakeFirst();
          if (!user) throw unauthorized();
          if (!confirmsAccountDeletion(user, request.body.confirm)) throw badRequest(WRONG_CONFIRMATION);
          await deleteUserEverything(trx, ctx.keptCampaigns, user);
        });
        clearSessionCookies(keys, reply);
        return { ok: true as const };
      },
    );
  });
}
