import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { ownerOnly } from './storage/data-dir.js';
import type { Db } from './db/index.js';

/**
 * Secrets that are not configured are generated once and kept, so restarts keep sessions valid
 * and nothing secret lives in the repo: in the data directory (mode 600) on SQLite, in the
 * database on PostgreSQL, where every server process sharing it must use the same ones.
 */
export interface SecretStore {
  /** A random secret generated once under this name (base64url). */
  secret(name: string, bytes?: number): Promise<string>;
  /** A JSON value (e.g. a key set) generated once under this name. */
  json<T>(name: string, create: () => T): Promise<T>;
}

const randomSecret = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

/** A file in the data directory, or undefined when there is none yet. */
function readKept(file: string): string | undefined {
  try {
    const value = fs.readFileSync(file, 'utf8');
    ownerOnly(file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function keptOrCreated(dataDir: string, fileName: string, create: () => string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, fileName);
  const kept = readKept(file);
  if (kept !== undefined) return kept;
  const value = create();
  fs.writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
  return value;
}

export function persistentSecret(dataDir: string, name: string, bytes = 32): string {
  return keptOrCreated(dataDir, `${name}.secret`, () => randomSecret(bytes) + '\n').trim();
}

export function persistentJson<T>(dataDir: string, name: string, create: () => T): T {
  return JSON.parse(keptOrCreated(dataDir, `${name}.json`, () => JSON.stringify(create()))) as T;
}

/** One server on SQLite: the data directory. */
export function fileSecrets(dataDir: string): SecretStore {
  return {
    secret: async (name, bytes) => persistentSecret(dataDir, name, bytes),
    json: async (name, create) => persistentJson(dataDir, name, create),
  };
}

/**
 * Several servers on one PostgreSQL: the server_secrets table. Nodes starting together race to
 * insert; the losers' inserts do nothing and everyone reads back the winner's value. A value a
 * single node already kept in its data directory is adopted, so moving to the database (or
 * adding a node) does not sign everyone out.
 */
export function databaseSecrets(db: Db, dataDir: string): SecretStore {
  const shared = async (name: string, create: () => string): Promise<string> => {
    const read = () => db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
    const found = await read();
    if (found) return found.value;
    await db
      .insertInto('server_secrets')
      .values({ name, value: create(), created_at: Date.now() })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const stored = await read();
    if (!stored) throw new Error(`the secret ${name} could not be stored in the database`);
    return stored.value;
  };
  const adopted = (fileName: string) => readKept(path.join(dataDir, fileName));
  return {
    secret: (name, bytes = 32) => shared(name, () => adopted(`${name}.secret`)?.trim() || randomSecret(bytes)),
    json: async (name, create) => JSON.parse(await shared(name, () => adopted(`${name}.json`) ?? JSON.stringify(create()))),
  };
}

export const secretStore = (db: Db, config: { databaseUrl?: string; dataDir: string }): SecretStore =>
  config.databaseUrl ? databaseSecrets(db, config.dataDir) : fileSecrets(config.dataDir);
