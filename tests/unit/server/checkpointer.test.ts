import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../../server/db/index.js';

describe('SQLite checkpoints on a thread of their own', () => {
  let db: Db | undefined;
  let dir = '';
  afterEach(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the database file without a commit doing it, and the log starts over', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-checkpoint-'));
    db = openDb({ dataDir: dir });
    const file = path.join(dir, 'tapedeck.sqlite');
    await sql`create table filler (body blob)`.execute(db);
    // About 2 MB in 500 pages: under SQLite's own mark (1000 pages), so no commit checkpoints.
    for (let i = 0; i < 50; i++) await sql`insert into filler values (${Buffer.alloc(40_000, i)})`.execute(db);
    const before = fs.statSync(file).size;
    let after = before;
    for (let i = 0; i < 50 && after < 2_000_000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = fs.statSync(file).size;
    }
    expect(before).toBeLessThan(100_000);
    expect(after).toBeGreaterThan(2_000_000);
    // With the log copied back, the next commit starts writing it from its beginning again.
    const log = fs.statSync(`${file}-wal`).size;
    for (let i = 0; i < 5; i++) await sql`insert into filler values (${Buffer.alloc(40_000, i)})`.execute(db);
    expect(fs.statSync(`${file}-wal`).size).toBe(log);
  });
});
