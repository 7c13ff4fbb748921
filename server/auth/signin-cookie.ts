import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../common/return-path.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { SessionKeys } from './tokens.js';
import type { SignInCheck } from './signin-client.js';

/**
 * Between "Sign in" and the callback, the attempt's state, PKCE verifier and nonce wait in a
 * short-lived cookie, encrypted and authenticated (JWE, A256GCM), so any server process can
 * finish the sign-in and nobody can read or forge the verifier.
 */
export const SIGNIN_COOKIE = 'td_signin';
const SIGNIN_TTL_SECONDS = 10 * 60;
const SIGNIN_PATH = '/api/v1/auth';
/** Names what the token is for. */
const AUDIENCE = 'tapedeck:sign-in';

export interface PendingSignIn extends SignInCheck {
  returnTo: string;
}

/** A key of its own, derived from the session secret. */
const cookieKey = (keys: SessionKeys) => crypto.createHash('sha256').update(keys.key).update('tapedeck sign-in cookie').digest();

const options = (keys: SessionKeys) => ({ httpOnly: true, sameSite: 'lax' as const, secure: keys.secure, path: SIGNIN_PATH });

export async function setSignInCookie(keys: SessionKeys, reply: FastifyReply, pending: PendingSignIn): Promise<void> {
  const token = await new EncryptJWT({ ...pending })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SIGNIN_TTL_SECONDS}s`)
    .encrypt(cookieKey(keys));
  reply.setCookie(SIGNIN_COOKIE, token, { ...options(keys), maxAge: SIGNIN_TTL_SECONDS });
}

/** The pending attempt, or null when the cookie is missing, forged or expired. */
export async function readSignInCookie(keys: SessionKeys, request: FastifyRequest): Promise<PendingSignIn | null> {
  const token = request.cookies[SIGNIN_COOKIE];
  if (!token) return null;
  try {
    const { payload } = await jwtDecrypt(token, cookieKey(keys), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      audience: AUDIENCE,
    });
    const { state, verifier, nonce, returnTo } = payload;
    if ([state, verifier, nonce, returnTo].some((v) => typeof v !== 'string')) return null;
    return { state, verifier, nonce, returnTo } as PendingSignIn;
  } catch {
    return null;
  }
}

export function clearSignInCookie(keys: SessionKeys, reply: FastifyReply): void {
  reply.clearCookie(SIGNIN_COOKIE, options(keys));
}

/** Where sign-in returns to: the shared rule (common/return-path.ts), else the dashboard. */
export const safeReturnTo = (value: string | undefined): string => safeReturnPath(value) ?? DEFAULT_RETURN_PATH;
