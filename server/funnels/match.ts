import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { FunnelStep } from '../../common/funnels.js';
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
