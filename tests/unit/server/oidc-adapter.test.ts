import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from '../../../server/db/index.js';
import { databaseAdapter } from '../../../server/auth/oidc-adapter.js';

// The built-in provider's records in our database: what oidc-provider expects of an adapter.
describe('the built-in provider’s storage adapter', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-oidc-adapter-'));
  let db: Db;
  let Adapter: ReturnType<typeof databaseAdapter>;
  beforeAll(async () => {
    db = openDb({ dataDir: dir });
    await migrate(db);
    Adapter = databaseAdapter(db);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a record per model and id, replaces it on upsert, finds sessions by uid', async () => {
    const sessions = new Adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'b' }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: 'b' });
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'b' });
    expect(await new Adapter('Interaction').find('s1')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('marks a consumed code, forgets expired records, and revokes what a grant issued', async () => {
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));

    await db
      .updateTable('oidc_models')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', 'c1')
      .execute();
    expect(await codes.find('c1')).toBeUndefined();

    const tokens = new Adapter('AccessToken');
    await tokens.upsert('t1', { grantId: 'g2' }, 60);
    const grants = new Adapter('Grant');
    await grants.upsert('g2', { grantId: 'g2', accountId: 'a' }, 60);
    await tokens.revokeByGrantId('g2');
    expect(await tokens.find('t1')).toBeUndefined();
    expect(await grants.find('g2')).toEqual({ grantId: 'g2', accountId: 'a' });
  });
});
