import { SignJWT, decodeJwt } from 'jose';
import { upsertUser } from '../../server/auth/users.js';
import { createSessionTokens, ACCESS_COOKIE, REFRESH_COOKIE } from '../../server/auth/tokens.js';
import type { TestServer } from './server.js';

/**
 * A signed-in user for API tests that are not about sign-in itself: the user row and the
 * session tokens are made by the server's own modules, so cookies are the real ones.
 * The sign-in flow through the identity provider has its own tests.
 */
export async function userSession(server: TestServer, name = 'Ada Owner', email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`) {
  const userId = await upsertUser(server.db, { subject: `test|${email}`, name, email, picture: null });
  const { access, refresh } = await createSessionTokens(server.db, server.app.ctx.keys, userId);
  const cookie = `${ACCESS_COOKIE}=${access}; ${REFRESH_COOKIE}=${refresh}`;
  return { userId, cookie, headers: { cookie, origin: server.config.publicUrl } };
}

/** What the user's access token says: their sign-in (sid) and user id (sub). */
export const accessClaims = (user: { cookie: string }) => decodeJwt(user.cookie.split(`${ACCESS_COOKIE}=`)[1].split(';')[0]);

/** Another access token of the user's sign-in (same session id, the server's key) that expires in `seconds`. */
export async function accessTokenExpiringIn(server: TestServer, user: { cookie: string }, seconds: number): Promise<string> {
  const { sid, sub } = accessClaims(user);
  return new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub as string)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(server.app.ctx.keys.key);
}
