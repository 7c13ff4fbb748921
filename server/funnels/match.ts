import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import { needsVisits, type FunnelStep } from '../../common/funnels.js';
import { patternSql } from '../../common/page-pattern.js';

// A funnel's steps in SQL, matching as common/funnels.ts does in JavaScript: a page is its page
// pattern in SQL (common/page-pattern.ts patternSql: GLOB on SQLite, LIKE on PostgreSQL, a
// property test holds them to the JavaScript matcher); a click is the step's
// selector path or text; an event, the step's name. Page-only funnels read session_pages (in the
// order of its `position`), others session_visits (in the order of `at`, then `seq`).

/** Whether `path` (a column) is the page step's pattern. */
export function pathMatches(db: Executor, path: RawBuilder<unknown>, pattern: string): RawBuilder<SqlBool> {
  const text = patternSql(pattern, isPostgres(db) ? 'like' : 'glob');
  if ('equals' in text) return sql<SqlBool>`${path} = ${text.equals}`;
  if ('like' in text) return sql<SqlBool>`${path} like ${text.like}`;
  return sql<SqlBool>`${path} glob ${text.glob}`;
}

/** Whether the session_visits row `v` (an alias) is the step. */
export function visitMatches(db: Executor, v: RawBuilder<unknown>, step: FunnelStep): RawBuilder<SqlBool> {
  if ('page' in step) return sql<SqlBool>`(${v}.kind = 'page' and ${pathMatches(db, sql`${v}.value`, step.page)})`;
  if ('click' in step) return sql<SqlBool>`(${v}.kind = 'click' and (${v}.value = ${step.click} or ${v}.text = ${step.click}))`;
  return sql<SqlBool>`(${v}.kind = 'event' and ${v}.value = ${step.event})`;
}

/** Where a funnel's visits are, how one is the step, and how one comes after another. */
function source(db: Executor, steps: FunnelStep[]) {
  if (needsVisits(steps))
    return {
      table: sql.raw('session_visits'),
      matches: (v: RawBuilder<unknown>, step: FunnelStep) => visitMatches(db, v, step),
      after: (v: RawBuilder<unknown>, before: RawBuilder<unknown>) =>
        sql`(${v}.at > ${before}.at or (${v}.at = ${before}.at and ${v}.seq > ${before}.seq))`,
    };
  return {
    table: sql.raw('session_pages'),
    matches: (p: RawBuilder<unknown>, step: FunnelStep) => ('page' in step ? pathMatches(db, sql`${p}.path`, step.page) : sql<SqlBool>`1 = 0`),
    after: (p: RawBuilder<unknown>, before: RawBuilder<unknown>) => sql`${p}.position > ${before}.position`,
  };
}

/**
 * Sessions (the outer query's `sessions` row) that reached step `reached` (1-based): visits
 * v1…vN of steps 1…N, each after the one before, each no later than `withinMs` after v1.
 */
export function reachedStep(db: Executor, steps: FunnelStep[], withinMs: number, reached: number): RawBuilder<SqlBool> {
  const { table, matches, after } = source(db, steps);
  const alias = (i: number) => sql.raw(`v${i + 1}`);
  const joins = steps.slice(1, reached).map((step, index) => {
    const v = alias(index + 1);
    return sql`join ${table} ${v} on ${v}.campaign_id = v1.campaign_id and ${v}.session_id = v1.session_id
      and ${after(v, alias(index))} and ${v}.at <= v1.at + ${withinMs} and ${matches(v, step)}`;
  });
  return sql<SqlBool>`exists (select 1 from ${table} v1 ${sql.join(joins, sql` `)}
    where v1.campaign_id = sessions.campaign_id and v1.session_id = sessions.id and ${matches(alias(0), steps[0])})`;
}
