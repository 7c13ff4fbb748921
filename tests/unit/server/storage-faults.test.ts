import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskGuard } from '../../../server/storage/disk-guard.js';
import { STORAGE_FULL_MESSAGE, STORAGE_READ_ONLY_MESSAGE, storageFault } from '../../../server/http/errors.js';

function warnings() {
  const lines: string[] = [];
  return { lines, log: { warn: (line: string) => void lines.push(line) } };
}

describe('the disk guard', () => {
  it('is off at DISK_MIN_FREE_MB=0', () => {
    const { lines, log } = warnings();
    const guard = new DiskGuard(os.tmpdir(), 0, log);
    expect(guard.ok()).toBe(true);
    expect(lines).toEqual([]);
  });

  it('lets ingest on while there is room, silently', async () => {
    const { lines, log } = warnings();
    const guard = new DiskGuard(os.tmpdir(), 1, log, 0);
    expect(guard.ok()).toBe(true);
    await guard.refresh();
    expect(guard.ok()).toBe(true);
    expect(lines).toEqual([]);
  });

  it('refuses below the threshold and says so once, however often it is asked or measured', async () => {
    const { lines, log } = warnings();
    const guard = new DiskGuard(os.tmpdir(), Number.MAX_SAFE_INTEGER, log, 0);
    expect(guard.ok()).toBe(false);
    await guard.refresh();
    await guard.refresh();
    expect(guard.ok()).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^storage nearly full \(\d+ MB free under .+\): ingest answers 503/);
  });

  it('measures the nearest existing parent of a DATA_DIR not made yet', () => {
    const { lines, log } = warnings();
    const guard = new DiskGuard(path.join(os.tmpdir(), 'no-such-dir', 'data'), 1, log);
    expect(guard.ok()).toBe(true);
    expect(lines).toEqual([]);
  });
});

describe('storage faults', () => {
  it('knows a full disk by its code from SQLite, Node and PostgreSQL, also behind a cause', () => {
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']) {
      expect(storageFault(Object.assign(new Error('full'), { code }))).toEqual({ code, message: STORAGE_FULL_MESSAGE });
    }
    expect(storageFault(new Error('wrapped', { cause: Object.assign(new Error('full'), { code: 'SQLITE_FULL' }) }))?.code).toBe('SQLITE_FULL');
  });

  it('knows read-only storage', () => {
    for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'EROFS']) {
      expect(storageFault(Object.assign(new Error('ro'), { code }))?.message).toBe(STORAGE_READ_ONLY_MESSAGE);
    }
  });

  it('leaves other errors alone', () => {
    for (const error of [
      new Error('boom'),
      Object.assign(new Error('dup'), { code: '23505' }),
      Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT' }),
      null,
      undefined,
    ]) {
      expect(storageFault(error)).toBeNull();
    }
  });
});
