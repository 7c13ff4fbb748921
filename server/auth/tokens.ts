import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../db/index.js';
import { unauthorized } from '../http/errors.js';
import { claimToken, familyIsLive, findTokenByHash, findTokenById, insertRefreshToken, revokeFamily, rotatedSince } from './refresh-tokens.js';
import { recordSignIn, touchSignIn } from './sign-ins.js';

/** Session cookies: a short-lived signed access token and a rotating, revocable refresh token. */
export const ACCESS_COOKIE = 'td_access';
export const REFRESH_COOKIE = 'td_refresh';
export const ACCESS_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 60 * 60;
/** The refresh cookie only travels to the auth calls that need it. */
const REFRESH_PATH = '/api/v1/auth';

export interface SessionKeys {
  key: Uint8Array;
  secure: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    userId: string | null;
    /** The sign-in (refresh-token family) the access token belongs to; set with userId. */
    signInId: string | null;
  }
}

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** The access token names its session family, so revoking the family ends it at once. */
async function signAccessToken(keys: SessionKeys, userId: string, familyId: string): Promise<string> {
  return new SignJWT({ sid: familyId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TTL_SECONDS}s`)
    .sign(keys.key);
}

/**
 * The user id in a valid access-token cookie whose session is still live, or null.
 * One indexed look-up per call: logout and refresh-token reuse end access tokens at once,
 * not when they expire.
 */
export async function readAccessToken(db: Db, keys: SessionKeys, request: Pick<FastifyRequest, 'cookies'>): Promise<string | null> {
  return (await readSession(db, keys, request))?.userId ?? null;
}

/** The user and sign-in of a valid access-token cookie whose sign-in is still live, or null. */
async function readSession(db: Db, keys: SessionKeys, request: Pick<FastifyRequest, 'cookies'>): Promise<{ userId: string; signInId: string } | null> {
  const token = request.cookies[ACCESS_COOKIE];
  if (!token) return null;
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keys.key, { algorithms: ['HS256'] }));
  } catch {
    return null;
  }
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
  return (await familyIsLive(db, payload.sid)) ? { userId: payload.sub, signInId: payload.sid } : null;
}

function setCookies(keys: SessionKeys, reply: FastifyReply, access: string, refresh: string): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: keys.secure };
  reply.setCookie(ACCESS_COOKIE, access, { ...base, path: '/', maxAge: ACCESS_TTL_SECONDS });
  reply.setCookie(REFRESH_COOKIE, refresh, { ...base, path: REFRESH_PATH, maxAge: REFRESH_TTL_SECONDS });
}

export function clearSessionCookies(keys: SessionKeys, reply: FastifyReply): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: keys.secure };
  reply.clearCookie(ACCESS_COOKIE, { ...base, path: '/' });
  reply.clearCookie(REFRESH_COOKIE, { ...base, path: REFRESH_PATH });
}

async function newRefreshToken(db: Db, userId: string, familyId: string, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
  const token = crypto.randomBytes(32).toString('base64url');
  await insertRefreshToken(db, {
    id: crypto.randomUUID(),
    user_id: userId,
    family_id: familyId,
    token_hash: hash(token),
    created_at: now,
    expires_at: now + REFRESH_TTL_SECONDS * 1000,
    rotated_at: null,
    revoked_at: null,
  });
  return { token, expiresAt: now + REFRESH_TTL_SECONDS * 1000 };
}

/** Mints a new session (a new refresh-token family, listed as a sign-in on the account page) for a user. */
export async function createSessionTokens(db: Db, keys: SessionKeys, userId: string, userAgent?: string): Promise<{ access: string; refresh: string }> {
  const familyId = crypto.randomUUID();
  const now = Date.now();
  const { token: refresh, expiresAt } = await newRefreshToken(db, userId, familyId, now);
  await recordSignIn(db, { familyId, userId, userAgent, now, expiresAt });
  return { access: await signAccessToken(keys, userId, familyId), refresh };
}

/** Starts a new session and sets its cookies. */
export async function issueSession(db: Db, keys: SessionKeys, reply: FastifyReply, userId: string): Promise<void> {
  const { access, refresh } = await createSessionTokens(db, keys, userId, reply.request.headers['user-agent']);
  setCookies(keys, reply, access, refresh);
}

/**
 * How long a just-rotated refresh token still buys a new pair. Two tabs (or a retried request)
 * refreshing at the same moment present the same token; the later one must not sign the owner out.
 */
export const REFRESH_GRACE_MS = 10_000;

/**
 * A rotated token presented again is forgiven only inside the grace window and while the family
 * has not moved on (no token of it rotated since): that is a concurrent refresh, not a stolen copy.
 */
async function withinGrace(db: Db, row: { id: string; family_id: string; rotated_at: number | null }, now: number): Promise<boolean> {
  if (row.rotated_at === null || now - row.rotated_at > REFRESH_GRACE_MS) return false;
  return !(await rotatedSince(db, row.family_id, row.id, row.rotated_at));
}

/**
 * Exchanges a refresh token for a new pair in the same family. A token that was already rotated
 * is a reuse — someone else holds a copy — and revokes the whole family, unless it is a
 * concurrent refresh inside the grace window. Returns the user id or null.
 */
export async function rotateSession(db: Db, keys: SessionKeys, reply: FastifyReply, token: string): Promise<string | null> {
  const now = Date.now();
  const row = await findTokenByHash(db, hash(token));
  if (!row || row.revoked_at !== null || row.expires_at < now) return null;
  // Conditional update: of two concurrent rotations of the same token, only one claims it.
  const claimed = row.rotated_at === null && (await claimToken(db, row.id, now));
  if (!claimed) {
    const current = await findTokenById(db, row.id);
    if (!current || current.revoked_at !== null || !(await withinGrace(db, current, now))) {
      await revokeFamily(db, row.family_id);
      return null;
    }
  }
  const { token: refresh, expiresAt } = await newRefreshToken(db, row.user_id, row.family_id, now);
  await touchSignIn(db, row.family_id, now, expiresAt);
  setCookies(keys, reply, await signAccessToken(keys, row.user_id, row.family_id), refresh);
  return row.user_id;
}

/** Revokes the session family the presented refresh token belongs to. */
export async function revokeSession(db: Db, token: string | undefined): Promise<void> {
  if (!token) return;
  const row = await findTokenByHash(db, hash(token));
  if (row) await revokeFamily(db, row.family_id);
}

/** preHandler for every call that needs a signed-in user: 401 without a valid access token (or an API key's maker, api-keys/authenticate.ts). */
export function requireUser({ db, keys }: { db: Db; keys: SessionKeys }) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.apiKey && request.userId) return;
    const session = await readSession(db, keys, request);
    if (!session) throw unauthorized();
    request.userId = session.userId;
    request.signInId = session.signInId;
  };
}

/** The signed-in user's id; only valid behind requireUser. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.userId) throw unauthorized();
  return request.userId;
}
