import crypto from 'node:crypto';
import type { Executor } from '../db/executor.js';
import type { ShareExpiry, ShareLink } from '../../common/api/shares.js';

const HOUR = 3_600_000;
export const SHARE_EXPIRY_MS: Record<ShareExpiry, number> = { '1h': HOUR, '24h': 24 * HOUR, '7d': 7 * 24 * HOUR };

/** A token is 32 random bytes in base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** A listed link's id: its token's SHA-256 in hex. */
const TOKEN_HASH = /^[0-9a-f]{64}$/;

export const isShareToken = (value: string) => TOKEN.test(value);
export const hashShareToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The stored hash a revoke names: a token (hashed here) or a listed link's id; null for neither. */
export function shareHashOf(tokenOrId: string): string | null {
  if (isShareToken(tokenOrId)) return hashShareToken(tokenOrId);
  return TOKEN_HASH.test(tokenOrId) ? tokenOrId : null;
}

export interface NewShare {
  campaignId: string;
  sessionId: string;
  expiresIn: ShareExpiry;
  includeDetails: boolean;
}

/** Stores a new link's hash and answers its token (shown once) and expiry. */
export async function createShare(db: Executor, share: NewShare, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = now + SHARE_EXPIRY_MS[share.expiresIn];
  await db
    .insertInto('share_links')
    .values({
      token_hash: hashShareToken(token),
      campaign_id: share.campaignId,
      session_id: share.sessionId,
      include_details: share.includeDetails ? 1 : 0,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** A session's links, newest first, revoked and expired ones included (the page greys them). */
export async function listShares(db: Executor, campaignId: string, sessionId: string): Promise<ShareLink[]> {
  const rows = await db
    .selectFrom('share_links')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.token_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    includeDetails: row.include_details === 1,
    revoked: row.revoked_at !== null,
  }));
}

/** The link a stored hash names, revoked or not (its campaign says who may revoke it). */
export function findShare(db: Executor, tokenHash: string) {
  return db.selectFrom('share_links').select(['token_hash', 'campaign_id', 'session_id', 'revoked_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Revokes a link; false when it was revoked already (revoking again changes nothing). */
export async function revokeShare(db: Executor, tokenHash: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('share_links')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The live link a token opens: undefined once expired or revoked (or never made). */
export function findLiveShare(db: Executor, token: string, now = Date.now()) {
  return db
    .selectFrom('share_links')
    .selectAll()
    .where('token_hash', '=', hashShareToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}
