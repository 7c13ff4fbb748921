import type { Executor } from '../db/executor.js';

/**
 * The sign_ins table: one row per sign-in (refresh-token family) for the account page. Every
 * query on it, each taking the database or a transaction.
 */

/** Longer User-Agent strings are cut: the summary needs the start, and a header may be huge. */
export const MAX_USER_AGENT = 512;

export interface SignInRow {
  family_id: string;
  user_agent: string | null;
  created_at: number;
  last_used_at: number;
}

export async function recordSignIn(
  db: Executor,
  row: { familyId: string; userId: string; userAgent: string | undefined; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('sign_ins')
    .values({
      family_id: row.familyId,
      user_id: row.userId,
      user_agent: row.userAgent ? row.userAgent.slice(0, MAX_USER_AGENT) : null,
      created_at: row.now,
      last_used_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** A refresh of the family: it was used now, and lasts as long as its new refresh token. */
export async function touchSignIn(db: Executor, familyId: string, now: number, expiresAt: number): Promise<void> {
  await db.updateTable('sign_ins').set({ last_used_at: now, expires_at: expiresAt }).where('family_id', '=', familyId).execute();
}

/** The user's sign-ins that can still refresh (not expired, a token of the family not revoked), latest used first. */
export function listLiveSignIns(db: Executor, userId: string, now = Date.now()): Promise<SignInRow[]> {
  return db
    .selectFrom('sign_ins')
    .select(['family_id', 'user_agent', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('refresh_tokens')
          .select('id')
          .whereRef('refresh_tokens.family_id', '=', 'sign_ins.family_id')
          .where('refresh_tokens.revoked_at', 'is', null),
      ),
    )
    .orderBy('last_used_at', 'desc')
    .orderBy('family_id')
    .execute();
}

/** Whether this family is one of the user's (any of its tokens, revoked or not). */
export const SIGN_IN_NOT_FOUND = 'Sign-in not found';

export async function userHasFamily(db: Executor, userId: string, familyId: string): Promise<boolean> {
  const row = await db.selectFrom('refresh_tokens').select('id').where('family_id', '=', familyId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function deleteSignIns(db: Executor, where: { userId: string; familyId?: string }): Promise<void> {
  let query = db.deleteFrom('sign_ins').where('user_id', '=', where.userId);
  if (where.familyId) query = query.where('family_id', '=', where.familyId);
  await query.execute();
}

/** Sign-ins whose newest refresh token has expired: nothing can use them any more. */
export async function deleteExpiredSignIns(db: Executor, now = Date.now()): Promise<number> {
  const result = await db.deleteFrom('sign_ins').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
