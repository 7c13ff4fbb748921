import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { persistentJson, persistentSecret } from '../../../server/secrets.js';
import { openDb } from '../../../server/db/index.js';

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('the data directory', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-secrets-'));
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('generates a secret once, keeps it owner-only and answers the same one after', () => {
    const dir = path.join(parent, 'a');
    const first = persistentSecret(dir, 'session');
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(persistentSecret(dir, 'session')).toBe(first);
    expect(mode(path.join(dir, 'session.secret'))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(persistentJson(dir, 'keys', () => ({ k: 1 }))).toEqual({ k: 1 });
    expect(persistentJson(dir, 'keys', () => ({ k: 2 }))).toEqual({ k: 1 });
    expect(mode(path.join(dir, 'keys.json'))).toBe(0o600);
  });

  it('is created owner-only by the database too', async () => {
    const dir = path.join(parent, 'b');
    const db = openDb({ dataDir: dir });
    await db.destroy();
    expect(mode(dir)).toBe(0o700);
    expect(fs.existsSync(path.join(dir, 'tapedeck.sqlite'))).toBe(true);
  });
});
