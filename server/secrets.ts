import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { ownerOnly } from './storage/data-dir.js';

/**
 * Secrets that are not configured are generated once and kept in the data directory
 * (mode 600), so restarts keep sessions valid and nothing secret lives in the repo.
 */
export function persistentSecret(dataDir: string, name: string, bytes = 32): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, `${name}.secret`);
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    ownerOnly(file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = crypto.randomBytes(bytes).toString('base64url');
  fs.writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
  return value;
}

/** A JSON value (e.g. a key set) generated once and kept in the data directory. */
export function persistentJson<T>(dataDir: string, name: string, create: () => T): T {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, `${name}.json`);
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    ownerOnly(file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = create();
  fs.writeFileSync(file, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
  return value;
}
