import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../db/executor.js';
import type { RefreshTokensTable } from '../db/schema.js';

/** The refresh_tokens table: every query on it, each taking the database or a transaction. */

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export async function insertRefreshToken(db: Executor, row: Insertable<RefreshTokensTable>): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

export function findTokenByHash(db: Executor, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findTokenById(db: Executor, id: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the session family still has a token that is not revoked (an access token of it is still good). */
export async function familyIsLive(db: Executor, familyId: string): Promise<boolean> {
  const live = await db.selectFrom('refresh_tokens').select('id').where('family_id', '=', familyId).where('revoked_at', 'is', null).executeTakeFirst();
  return live !== undefined;
}

/** Marks a token rotated unless it already was: of two concurrent rotations, only one claims it. */
export async function claimToken(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db.updateTable('refresh_tokens').set({ rotated_at: now }).where('id', '=', id).where('rotated_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether another token of the family was rotated at or after this moment (the family moved on). */
export async function rotatedSince(db: Executor, familyId: string, exceptId: string, since: number): Promise<boolean> {
  const later = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', familyId)
    .where('id', '!=', exceptId)
    .where('rotated_at', '>=', since)
    .executeTakeFirst();
  return later !== undefined;
}

export async function revokeFamily(db: Executor, familyId: string, now = Date.now()): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of these users. */
export async function revokeUsersTokens(db: Executor, userIds: string[], now = Date.now()): Promise<void> {
  if (userIds.length) await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', 'in', userIds).where('revoked_at', 'is', null).execute();
}

/**
 * Removes tokens past their expiry: they can no longer be exchanged (rotateSession refuses them
 * before any reuse check), and an access token outlives none of them, so nothing needs them.
 */
export async function deleteExpiredTokens(db: Executor, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom('refresh_tokens').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
