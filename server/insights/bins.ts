import { sql, type RawBuilder } from 'kysely';
import { TIME_BINS, type TimeBins } from '../../common/insights.js';

/**
 * common/insights.ts timeBin as SQL, for both databases: `value` a whole number of ms, not
 * negative (integer division then rounds as Math.floor does). tests/integration/time-bins.test.ts
 * shows the two agree.
 */
export function timeBinSql(value: RawBuilder<unknown>, bins: TimeBins = TIME_BINS): RawBuilder<number> {
  const to = (step: number) => sql`((${value} + ${sql.lit(step / 2)}) / ${sql.lit(step)}) * ${sql.lit(step)}`;
  const finer = bins.slice(0, -1).map(([below, step]) => sql`when ${value} < ${sql.lit(below)} then ${to(step)}`);
  return sql<number>`case ${sql.join(finer, sql` `)} else ${to(bins[bins.length - 1][1])} end`;
}
