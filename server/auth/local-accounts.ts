import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Executor } from '../db/executor.js';
import type { LocalAccountsTable } from '../db/schema.js';

/**
 * Accounts of the built-in provider: an email, a name and a password kept only as a scrypt hash.
 * The local_accounts table's queries live here too, each taking the database or a transaction.
 */

export const MIN_PASSWORD_LENGTH = 8;
/** The refusal of a shorter new password: the server's answer and the sign-in page's own check. */
export const SHORT_PASSWORD = `Please choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`;
/** Longer input is refused before hashing, so nobody can make scrypt chew megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;

export type MadeBy = 'signup' | 'command';

export type LocalAccount = Pick<Selectable<LocalAccountsTable>, 'email' | 'subject' | 'name' | 'password_hash' | 'made_by'>;

// N=2^15, r=8: 32 MB and tens of milliseconds per guess, off the event loop (libuv's pool).
const SCRYPT = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...params, maxmem: 256 * params.N * params.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && crypto.timingSafeEqual(key, expected);
}

/** A hash no typed password matches, made once per process. */
let decoyHash: Promise<string> | null = null;

/**
 * Whether the password is this account's. Without an account the same scrypt work is done
 * against a decoy, so the answer takes as long whether or not the email has an account.
 */
export async function passwordMatches(account: LocalAccount | undefined, password: string): Promise<boolean> {
  decoyHash ??= hashPassword(crypto.randomBytes(32).toString('base64url'));
  const matches = await verifyPassword(password, account?.password_hash ?? (await decoyHash));
  return account !== undefined && matches;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** What an account's email must look like, on the sign-in form and for `npm run user` alike. */
export const isAccountEmail = (email: string) => /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email.trim());

/** A stable subject per email address (case-insensitive), so signing in again finds the same user. */
export function subjectForEmail(email: string): string {
  return crypto.createHash('sha256').update(normalizeEmail(email)).digest('base64url').slice(0, 32);
}

export function findAccount(db: Executor, email: string): Promise<LocalAccount | undefined> {
  return db
    .selectFrom('local_accounts')
    .select(['email', 'subject', 'name', 'password_hash', 'made_by'])
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

export function findAccountBySubject(db: Executor, subject: string): Promise<LocalAccount | undefined> {
  return db.selectFrom('local_accounts').select(['email', 'subject', 'name', 'password_hash', 'made_by']).where('subject', '=', subject).executeTakeFirst();
}

/**
 * Creates the account unless the email already has one (two first sign-ins at once: one wins).
 * Returns whether this call created it.
 */
export async function createAccount(db: Executor, account: { email: string; name: string; password: string; madeBy: MadeBy }): Promise<boolean> {
  const email = normalizeEmail(account.email);
  const now = Date.now();
  const result = await db
    .insertInto('local_accounts')
    .values({
      email,
      subject: subjectForEmail(email),
      name: account.name,
      password_hash: await hashPassword(account.password),
      made_by: account.madeBy,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** A new password from the administrator; the account then counts as theirs (SIGNUP=closed lets it in). */
export async function resetPassword(db: Executor, email: string, password: string): Promise<boolean> {
  const result = await db
    .updateTable('local_accounts')
    .set({ password_hash: await hashPassword(password), made_by: 'command', updated_at: Date.now() })
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function renameAccount(db: Executor, email: string, name: string): Promise<void> {
  await db.updateTable('local_accounts').set({ name, updated_at: Date.now() }).where('email', '=', normalizeEmail(email)).execute();
}
