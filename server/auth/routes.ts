import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CallbackBody, LoginQuery, SignInResponse, User, ValidateTokenResponse } from '../../common/api/auth.js';
import { Ok } from '../../common/api/shared.js';
import type { AppContext } from '../context.js';
import { badRequest, unauthorized } from '../http/errors.js';
import { LocalProvider } from './local-provider.js';
import { registerLocalProvider } from './local-routes.js';
import { SignInClient } from './signin-client.js';
import { clearSignInCookie, readSignInCookie, safeReturnTo, setSignInCookie } from './signin-cookie.js';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearSessionCookies, issueSession, readAccessToken, revokeSession, rotateSession } from './tokens.js';
import { findUser, upsertUser } from './users.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { perMinute } from './rate.js';

const loginSchema = { querystring: LoginQuery };
const callbackSchema = { body: CallbackBody, response: { 200: SignInResponse } };
const meSchema = { response: { 200: User } };
const validateSchema = { response: { 200: ValidateTokenResponse } };
const okSchema = { response: { 200: Ok } };

/**
 * Sign-in: the authorization-code flow with state, PKCE and nonce against Google,
 * any OIDC issuer or the built-in provider; then session cookies (tokens.ts).
 */
export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, db, keys } = ctx;
  const local = config.signIn.kind === 'local' ? new LocalProvider(config, db) : null;
  if (local) {
    await local.clientSecret(); // made at start-up, so the owner can hand it to another client
    await registerLocalProvider(app, config, local);
  }
  const client = new SignInClient(config, local);
  // Starting and finishing sign-in are each limited: a kept sign-in cookie (valid ten minutes)
  // must not drive code exchanges with the provider without end.
  const signInRate = { rateLimit: perMinute(config.rateLimits.signInPerIp), access: 'public' as const };

  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();

    api.get('/api/v1/auth/google/login', { schema: loginSchema, config: signInRate }, async (request, reply) => {
      const { returnTo } = request.query;
      let started;
      try {
        started = await client.start();
      } catch (error) {
        request.log.error({ err: error }, 'sign-in provider discovery failed');
        return reply.status(502).send({ error: 'The sign-in provider is unavailable' });
      }
      await setSignInCookie(keys, reply, { ...started.check, returnTo: safeReturnTo(returnTo) });
      return reply.header('Cache-Control', 'no-store').redirect(started.url.href, 302);
    });

    api.post('/api/v1/auth/google/callback', { schema: callbackSchema, config: signInRate }, async (request, reply) => {
      const body = request.body;
      const pending = await readSignInCookie(keys, request);
      clearSignInCookie(keys, reply); // one attempt per sign-in cookie
      if (!pending) throw badRequest('Sign-in expired or was started elsewhere; please sign in again');
      if (body.state !== pending.state) throw badRequest('Sign-in state does not match; please sign in again');
      let identity;
      try {
        identity = await client.finish(pending, { code: body.code, state: body.state, iss: body.iss });
      } catch (error) {
        request.log.warn({ err: error }, 'sign-in code exchange failed');
        throw badRequest('Sign-in failed: the code could not be exchanged');
      }
      const userId = await upsertUser(db, identity);
      await issueSession(db, keys, reply, userId);
      const user = await findUser(db, userId);
      if (!user) throw badRequest('Sign-in failed: the user could not be saved');
      return { user, returnTo: pending.returnTo };
    });

    api.get('/api/v1/auth/me', { config: { access: 'account' }, schema: meSchema }, async (request, reply) => {
      const userId = await readAccessToken(db, keys, request);
      const user = userId ? await findUser(db, userId) : undefined;
      if (!user) throw unauthorized();
      return reply.header('Cache-Control', 'no-store').send(user);
    });

    api.get('/api/v1/auth/validateToken', { config: { access: 'account' }, schema: validateSchema }, async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!request.cookies[ACCESS_COOKIE]) return { valid: false, error: 'No access token' };
      const userId = await readAccessToken(db, keys, request);
      if (!userId) return { valid: false, error: 'Access token is invalid or expired' };
      if (!(await findUser(db, userId))) return { valid: false, error: 'User no longer exists' };
      return { valid: true };
    });

    api.post(
      '/api/v1/auth/refresh',
      { schema: okSchema, config: { rateLimit: perMinute(config.rateLimits.refreshPerIp), access: 'public' } },
      async (request, reply) => {
        const token = request.cookies[REFRESH_COOKIE];
        const userId = token ? await rotateSession(db, keys, reply, token) : null;
        if (!userId) {
          // Clear only a token that was sent and failed: a page without one may have asked while a
          // sign-in in the same browser was finishing, and its late answer must not undo that sign-in.
          if (token) clearSessionCookies(keys, reply);
          throw unauthorized();
        }
        return { ok: true as const };
      },
    );

    api.post('/api/v1/auth/logout', { config: { access: 'account' }, schema: okSchema }, async (request, reply) => {
      await revokeSession(db, request.cookies[REFRESH_COOKIE]);
      clearSessionCookies(keys, reply);
      return { ok: true as const };
    });
  });
}
