import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DAY_MS, HOUR_MS, TIME_BINS, timeBin, type TimeBins } from '../../common/insights.js';
import { timeBinSql } from '../../server/insights/bins.js';
import { PAGE_TIME_BINS } from '../../server/insights/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Histogram time bins are one rule (common/insights.ts timeBin); Insights writes them in SQL
// (server/insights/bins.ts). The two round every time alike, on this database.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

const edges = (bins: TimeBins) => bins.flatMap(([below, step]) => (Number.isFinite(below) ? [below - 1, below, below - step / 2, below - step / 2 - 1] : []));
const time = (bins: TimeBins) => fc.oneof(fc.constantFrom(0, 1, 499, 500, ...edges(bins)), fc.nat(60 * DAY_MS));

async function inSql(values: number[], bins: TimeBins): Promise<number[]> {
  const rows = sql.join(values.map((v) => sql`(cast(${v} as bigint))`));
  const { rows: binned } = await sql<{ b: number | string }>`select ${timeBinSql(sql`column1`, bins)} as b from (values ${rows}) as t`.execute(server.db);
  return binned.map((row) => Number(row.b));
}

describe('histogram time bins', () => {
  it.each([
    ['sessions and funnels', TIME_BINS],
    ['time on page', PAGE_TIME_BINS],
  ])('are the same in SQL as in JavaScript (%s)', async (_, bins) => {
    await fc.assert(
      fc.asyncProperty(fc.array(time(bins), { minLength: 1, maxLength: 50 }), async (values) => {
        expect(await inSql(values, bins)).toEqual(values.map((v) => timeBin(v, bins)));
      }),
      { numRuns: 50 },
    );
  });

  it('round to the nearest step of their bin', () => {
    expect([0, 499, 500, 599_999, 600_000, 604_999, HOUR_MS + 29_999, DAY_MS + 1].map((v) => timeBin(v))).toEqual([
      0,
      0,
      1000,
      600_000,
      600_000,
      600_000,
      HOUR_MS,
      DAY_MS,
    ]);
  });
});
