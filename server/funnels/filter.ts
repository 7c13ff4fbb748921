import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../db/executor.js';
import { badRequest, notFound } from '../http/errors.js';
import { FUNNEL_NOT_FOUND } from '../../common/api/funnels.js';
import { findFunnel } from './repository.js';
import { reachedStep } from './progress.js';

export interface FunnelQuery {
  funnel?: string;
  step?: number;
  outcome?: 'dropped' | 'converted';
}

/**
 * The sessions list's funnel filters as a condition on the sessions row: `funnel` alone, the
 * sessions that entered it; with `step=N`, those that reached step N; `outcome=converted`, those
 * that reached the last step; `outcome=dropped`, those that reached step N (or the first) but not
 * the next (or not the last). 404 for another campaign's funnel, 400 for a step it does not have.
 */
export async function funnelCondition(db: Executor, campaignId: string, query: FunnelQuery): Promise<RawBuilder<SqlBool> | undefined> {
  if (query.funnel === undefined) {
    if (query.step !== undefined || query.outcome !== undefined) throw badRequest('step and outcome need a funnel');
    return undefined;
  }
  const funnel = await findFunnel(db, campaignId, query.funnel);
  if (!funnel) throw notFound(FUNNEL_NOT_FOUND);
  const last = funnel.steps.length;
  if (query.step !== undefined && query.step > last) throw badRequest(`This funnel has ${last} steps`);
  const reached = (n: number) => reachedStep(db, funnel.steps, funnel.withinMs, n);
  if (query.outcome === 'converted') return reached(last);
  if (query.outcome === 'dropped') {
    const step = query.step ?? 1;
    if (step === last) throw badRequest('No session drops off after the last step');
    return query.step === undefined ? sql<SqlBool>`${reached(1)} and not ${reached(last)}` : sql<SqlBool>`${reached(step)} and not ${reached(step + 1)}`;
  }
  return reached(query.step ?? 1);
}
