import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { FunnelStep } from '../../common/funnels.js';

// A funnel's page steps in SQL, matching as common/funnels.ts does in JavaScript: a path equals
// the pattern, or, with `*` in it, fits it with `*` standing for any characters (case matters:
// GLOB on SQLite, LIKE on PostgreSQL, each with the other characters escaped).

/** Whether `path` (a column) is the page step's pattern. */
export function pathMatches(db: Executor, path: RawBuilder<unknown>, pattern: string): RawBuilder<SqlBool> {
  const clean = pattern.split(/[?#]/)[0];
  if (!clean.includes('*')) return sql<SqlBool>`${path} = ${clean}`;
  if (isPostgres(db)) return sql<SqlBool>`${path} like ${clean.replace(/[\\%_]/g, '\\$&').replaceAll('*', '%')}`;
  return sql<SqlBool>`${path} glob ${clean.replace(/[[?]/g, '[$&]')}`;
}

const pagePattern = (step: FunnelStep) => ('page' in step ? step.page : null);

/**
 * Sessions (the outer query's `sessions` row) that reached step `reached` (1-based): visits
 * p1…pN of steps 1…N at increasing positions, each no later than `withinMs` after p1.
 */
export function reachedStep(db: Executor, steps: FunnelStep[], withinMs: number, reached: number): RawBuilder<SqlBool> {
  const patterns = steps.slice(0, reached).map(pagePattern);
  if (patterns.some((p) => p === null)) return sql<SqlBool>`1 = 0`;
  const alias = (i: number) => sql.raw(`p${i + 1}`);
  const joins = patterns.slice(1).map((pattern, index) => {
    const i = index + 1;
    const p = alias(i);
    const before = alias(i - 1);
    return sql`join session_pages ${p} on ${p}.campaign_id = p1.campaign_id and ${p}.session_id = p1.session_id
      and ${p}.position > ${before}.position and ${p}.at <= p1.at + ${withinMs} and ${pathMatches(db, sql`${p}.path`, pattern as string)}`;
  });
  return sql<SqlBool>`exists (select 1 from session_pages p1 ${sql.join(joins, sql` `)}
    where p1.campaign_id = sessions.campaign_id and p1.session_id = sessions.id and ${pathMatches(db, sql`p1.path`, patterns[0] as string)})`;
}
