import crypto from 'node:crypto';
import type { Executor } from '../db/executor.js';
import { API_KEY_PREFIX, isApiKeyScope, type ApiKeyScope } from '../../common/api-keys.js';
import type { ApiKeyItem } from '../../common/api/api-keys.js';

// The api_keys table (migration 0036): every query on it. A key is "td_" and 43 base64url
// characters (32 random bytes); only its SHA-256 is kept, as invites' tokens are. 256 random bits
// need no slow hash: nothing short enough to guess is ever stored.

/** The characters of a key after "td_" that lists show, enough to tell keys apart. */
const PREFIX_CHARS = 8;
/** last_used_at is written at most this often per key: no write per request. */
export const LAST_USED_EVERY_MS = 60_000;

export const keyHash = (key: string) => crypto.createHash('sha256').update(key).digest('base64url');

/** A new key, its shown prefix and its hash. */
function newKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + PREFIX_CHARS), hash: keyHash(key) };
}

/** A bigint column as a number (PostgreSQL answers text). */
const time = (value: number | string | null) => (value === null ? null : Number(value));
const scopesOf = (text: string): ApiKeyScope[] => text.split(' ').filter(isApiKeyScope);

export interface NewApiKey {
  workspaceId: string;
  createdBy: string;
  name: string;
  scopes: readonly ApiKeyScope[];
  expiresAt: number | null;
}

/** Stores the key's hash; answers its id, the key (to show once) and its prefix. */
export async function insertApiKey(db: Executor, made: NewApiKey, now = Date.now()) {
  const { key, prefix, hash } = newKey();
  const id = crypto.randomUUID();
  await db
    .insertInto('api_keys')
    .values({
      id,
      workspace_id: made.workspaceId,
      created_by: made.createdBy,
      name: made.name,
      prefix,
      hash,
      scopes: made.scopes.join(' '),
      expires_at: made.expiresAt,
      last_used_at: null,
      revoked_at: null,
      created_at: now,
    })
    .execute();
  return { id, key, prefix };
}

/** How many keys of the workspace are not revoked (the cap counts them). */
export async function liveKeyCount(db: Executor, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The workspace's keys that are not revoked, newest first (expired ones too: the list says so). */
export async function keysOf(db: Executor, workspaceId: string): Promise<ApiKeyItem[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'scopes', 'last_used_at', 'expires_at', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    ...row,
    scopes: scopesOf(row.scopes),
    last_used_at: time(row.last_used_at),
    expires_at: time(row.expires_at),
    created_at: Number(row.created_at),
  }));
}

/** A key that is not revoked, by id: its workspace and prefix (for the revocation's access check and entry). */
export async function liveKey(db: Executor, id: string) {
  return db.selectFrom('api_keys').select(['id', 'workspace_id', 'prefix', 'name']).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Revokes the key; whether it was live (of two revocations at once, one wins). */
export async function revokeKey(db: Executor, id: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a presented key is, by its hash, with whether its maker is still a member of its workspace. */
export async function keyByHash(db: Executor, hash: string) {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('workspace_members as m', (join) => join.onRef('m.workspace_id', '=', 'k.workspace_id').onRef('m.user_id', '=', 'k.created_by'))
    .select(['k.id', 'k.workspace_id', 'k.created_by', 'k.prefix', 'k.scopes', 'k.expires_at', 'k.last_used_at', 'k.revoked_at', 'm.role'])
    .where('k.hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    createdBy: row.created_by,
    prefix: row.prefix,
    scopes: scopesOf(row.scopes),
    expiresAt: time(row.expires_at),
    lastUsedAt: time(row.last_used_at),
    revokedAt: time(row.revoked_at),
    member: row.role !== null,
  };
}

/** Notes the key's use, at most once a minute: the condition makes concurrent requests write once. */
export async function touchKey(db: Executor, id: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - LAST_USED_EVERY_MS)]))
    .execute();
}
