import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseSecrets, persistentJson, persistentSecret } from '../../../server/secrets.js';
import { migrate, openDb } from '../../../server/db/index.js';

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

describe('secrets shared through the database (several servers on PostgreSQL)', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-shared-secrets-'));
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  async function database(dir: string) {
    const db = openDb({ dataDir: dir });
    await migrate(db);
    return db;
  }

  it('gives every server the value the first one stored, even when they ask at once', async () => {
    const db = await database(path.join(parent, 'a'));
    try {
      const [one, two] = [databaseSecrets(db, path.join(parent, 'node-1')), databaseSecrets(db, path.join(parent, 'node-2'))];
      const [first, second] = await Promise.all([one.secret('session'), two.secret('session')]);
      expect(first.length).toBeGreaterThanOrEqual(40);
      expect(second).toBe(first);
      expect(await one.json('keys', () => ({ k: 1 }))).toEqual({ k: 1 });
      expect(await two.json('keys', () => ({ k: 2 }))).toEqual({ k: 1 });
      // Nothing is written to a node's data directory.
      expect(fs.existsSync(path.join(parent, 'node-1'))).toBe(false);
    } finally {
      await db.destroy();
    }
  });

  it('adopts a secret a single server kept in its data directory, so moving to the database signs nobody out', async () => {
    const dir = path.join(parent, 'b');
    const kept = persistentSecret(dir, 'session');
    const keys = persistentJson(dir, 'oidc-jwks', () => ({ keys: ['kept'] }));
    const db = await database(path.join(parent, 'b-db'));
    try {
      const shared = databaseSecrets(db, dir);
      expect(await shared.secret('session')).toBe(kept);
      expect(await shared.json('oidc-jwks', () => ({ keys: ['new'] }))).toEqual(keys);
      expect(await databaseSecrets(db, path.join(parent, 'elsewhere')).secret('session')).toBe(kept);
    } finally {
      await db.destroy();
    }
  });
});
