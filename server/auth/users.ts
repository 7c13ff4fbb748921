import crypto from 'node:crypto';
import type { Executor } from '../db/executor.js';
import type { User } from '../../common/api-types.js';
import { personalWorkspace } from '../teams/repository.js';

/** The users table: every query on it, each taking the database or a transaction. */

export interface Identity {
  /** issuer + "|" + subject */
  subject: string;
  name: string;
  email: string | null;
  picture: string | null;
}

/** Creates the user for an identity, or updates its name, email and picture. */
export async function upsertUser(db: Executor, identity: Identity): Promise<string> {
  const now = Date.now();
  const existing = await db.selectFrom('users').select('id').where('subject', '=', identity.subject).executeTakeFirst();
  if (existing) {
    await db
      .updateTable('users')
      .set({ name: identity.name, email: identity.email, picture: identity.picture, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    return existing.id;
  }
  const id = crypto.randomUUID();
  await db
    .insertInto('users')
    .values({ id, subject: identity.subject, name: identity.name, email: identity.email, picture: identity.picture, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('subject').doNothing())
    .execute();
  const row = await db.selectFrom('users').select('id').where('subject', '=', identity.subject).executeTakeFirstOrThrow();
  // Every account has its personal workspace from its first sign-in (migration 0034 made those of older accounts).
  await personalWorkspace(db, row.id, now);
  return row.id;
}

/** A user as the API shows them. */
export function findUser(db: Executor, id: string): Promise<User | undefined> {
  return db.selectFrom('users').select(['id', 'name', 'email', 'picture']).where('id', '=', id).executeTakeFirst();
}

/** The ids of users whose identity has this subject, whichever issuer it came from. */
export async function usersWithSubject(db: Executor, subject: string): Promise<string[]> {
  const candidates = await db.selectFrom('users').select(['id', 'subject']).where('subject', 'like', `%|${subject}`).execute();
  return candidates.filter((user) => user.subject.endsWith(`|${subject}`)).map((user) => user.id);
}
