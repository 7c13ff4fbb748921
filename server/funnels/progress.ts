import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../db/executor.js';
import { needsVisits, stepMatcher, type FunnelStep, type Progress, type Visit } from '../../common/funnels.js';
import { pathMatches, visitMatches } from './match.js';

// How far a session got in a funnel, once, in its two forms: in JavaScript over the session's
// visits in order (a funnel's results, its settled days) and as SQL over session_pages or
// session_visits (the sessions list's funnel filters). A session reaches step N when visits of
// steps 1…N come in that order, each no later than `withinMs` after the first; one step's visit
// is the step by common/funnels.ts stepMatcher and, in SQL, by match.ts.
// tests/integration/funnel-progress.test.ts shows the two agree on both databases.

/**
 * How far a session got: from each visit that is step 1, the earliest later visits that are the
 * following steps, within the window; the furthest such run (the first of equals).
 */
export function progress(visits: Visit[], steps: FunnelStep[], withinMs: number): Progress {
  const matchers = steps.map(stepMatcher);
  // Which steps each visit is, judged once: a page pattern costs up to path × pattern comparisons.
  const isStep = visits.map((visit) => matchers.map((matches) => matches(visit)));
  let best: Progress = { reached: 0, times: [] };
  for (let start = 0; start < visits.length && best.reached < steps.length; start++) {
    if (!isStep[start][0]) continue;
    const times = [visits[start].at];
    let at = start;
    for (let step = 1; step < steps.length; step++) {
      let next = at + 1;
      while (next < visits.length && !(isStep[next][step] && visits[next].at - visits[start].at <= withinMs)) next++;
      if (next >= visits.length) break;
      times.push(visits[next].at);
      at = next;
    }
    if (times.length > best.reached) best = { reached: times.length, times };
  }
  return best;
}

/** The order of a session's visits (progress's input): page visits by position, others by time, then seq. */
export const pageOrder = (a: { position: number }, b: { position: number }): number => Number(a.position) - Number(b.position);
export const visitOrder = (a: { at: number; seq: number }, b: { at: number; seq: number }): number =>
  Number(a.at) - Number(b.at) || Number(a.seq) - Number(b.seq);

/** Where a funnel's visits are, how one is the step, and how one comes after another (as pageOrder, visitOrder). */
function source(db: Executor, steps: FunnelStep[]) {
  if (needsVisits(steps))
    return {
      table: sql.raw('session_visits'),
      matches: (v: RawBuilder<unknown>, step: FunnelStep) => visitMatches(db, v, step),
      after: (v: RawBuilder<unknown>, before: RawBuilder<unknown>) => sql`(${v}.at > ${before}.at or (${v}.at = ${before}.at and ${v}.seq > ${before}.seq))`,
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
