import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { patternAndPath } from '../helpers/page-patterns.js';
import { pathMatches } from '../../server/funnels/match.js';
import { MAX_PAGE_PATH, MAX_PATTERN_CHARS, MAX_PATTERN_STARS, pageMatches, patternFlaw } from '../../common/page-pattern.js';

// Funnel results match page steps in SQL (GLOB on SQLite, LIKE on PostgreSQL); the tracker,
// ingest, heatmaps and funnels' own counting in JavaScript. Both forms come from
// common/page-pattern.ts, and here they answer alike on the real database.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

/** Whether the database finds the path to fit the pattern, by the funnels' own SQL. */
async function sqlMatches(pattern: string, path: string): Promise<boolean> {
  const { rows } = await sql<{
    fits: number;
  }>`select case when ${pathMatches(server.db, sql`cast(${path} as text)`, pattern)} then 1 else 0 end as fits`.execute(server.db);
  return Number(rows[0].fits) === 1;
}

describe('page patterns in SQL', () => {
  it('answer as the JavaScript matcher does, whatever the pattern and path hold', async () => {
    await fc.assert(
      fc.asyncProperty(patternAndPath, async ([pattern, path]) => {
        expect(await sqlMatches(pattern, path), JSON.stringify([pattern, path])).toBe(pageMatches(pattern, path));
      }),
      { numRuns: 400 },
    );
  });

  it('answer at once for the worst patterns within the caps against the longest kept paths', async () => {
    const path = `/${'a'.repeat(MAX_PAGE_PATH - 1)}`;
    const worst = [
      `/${'*a'.repeat(MAX_PATTERN_STARS - 1)}*b`,
      `/${Array.from({ length: MAX_PATTERN_STARS }, () => `*${'a'.repeat(18)}`).join('')}b`,
      `/${'*'.repeat(MAX_PATTERN_STARS)}${'a'.repeat(MAX_PATTERN_CHARS - MAX_PATTERN_STARS - 2)}b`,
    ];
    for (const pattern of worst) {
      expect(patternFlaw(pattern), pattern).toBeNull();
      const started = performance.now();
      expect(await sqlMatches(pattern, path)).toBe(false);
      expect(performance.now() - started, pattern).toBeLessThan(1000);
    }
  });
});
