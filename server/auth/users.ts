import crypto from 'node:crypto';
import type { Db } from '../db/index.js';

export interface Identity {
  /** issuer + "|" + subject */
  subject: string;
  name: string;
  email: string | null;
  picture: string | null;
}

/** Creates the user for an identity, or updates its name, email and picture. */
export async function upsertUser(db: Db, identity: Identity): Promise<string> {
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
  return row.id;
}
