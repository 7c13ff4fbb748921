import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDb, type Db } from '../../../server/db/index.js';

// SQLite keeps its compiled statements for reuse (server/db/index.ts): reuse must never change
// what a query answers, even while the same statement is being streamed.
describe('SQLite statements kept for reuse', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-statements-'));
  let db: Db;
  beforeAll(async () => {
    db = openDb({ dataDir: dir });
    await sql`create table items (n integer primary key)`.execute(db);
    await sql`insert into items (n) values (1), (2), (3), (4), (5)`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const query = (above: number) => sql<{ n: number }>`select n from items where n > ${above} order by n`;

  it('answers each run with its own parameters', async () => {
    for (const above of [0, 3, 4, 0]) {
      expect((await query(above).execute(db)).rows.map((row) => row.n)).toEqual([1, 2, 3, 4, 5].filter((n) => n > above));
    }
  });

  it('runs a statement again after a stream of it was left half-read', async () => {
    const items = () =>
      db
        .selectFrom(sql`items`.as('items') as never)
        .select(sql<number>`n`.as('n'))
        .orderBy(sql`n`);
    for await (const row of items().stream() as AsyncIterable<{ n: number }>) if (row.n === 2) break;
    expect(((await items().execute()) as { n: number }[]).map((row) => row.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('still answers after more distinct statements than it keeps', async () => {
    for (let i = 0; i < 600; i++) {
      const { rows } = await sql<{ v: number }>`select ${sql.lit(i)} + count(*) as v from items`.execute(db);
      expect(rows[0].v).toBe(i + 5);
    }
    expect((await query(2).execute(db)).rows.map((row) => row.n)).toEqual([3, 4, 5]);
  });
});
