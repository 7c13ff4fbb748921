import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

/** A storage problem found at start-up: one line that names the place and the cause. */
export class StorageError extends Error {}

const describe = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code} (${e.message})` : String(e.message ?? e);
};

/**
 * Proves DATA_DIR is usable before anything else starts: creates it (owner-only) when missing
 * and writes and removes a probe file. A server that started on a read-only directory would
 * answer 500 to every write later; better to stop now and say why.
 */
export function checkDataDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = path.join(dir, `.write-check-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
    fs.writeFileSync(probe, 'ok', { flag: 'wx', mode: 0o600 });
    fs.rmSync(probe);
  } catch (error) {
    throw new StorageError(`DATA_DIR ${dir} is not writable: ${describe(error)}`);
  }
}

/**
 * Keeps a file owner-only whatever the directory's mode or the umask: created 0600 when
 * missing, tightened when an older version left it readable by others.
 */
export function ownerOnly(file: string, create = false): void {
  if (create) fs.closeSync(fs.openSync(file, 'a', 0o600));
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export { describe as describeStorageError };
