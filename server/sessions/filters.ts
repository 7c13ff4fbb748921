import type { Db } from '../db/index.js';
import type { SessionsQuery } from '../../common/api/sessions.js';
import { splitPair } from '../../common/people.js';
import { SCREEN_SIZE, type UnknownValue } from '../../common/session-list.js';
import { funnelCondition } from '../funnels/filter.js';
import type { SessionFilters } from './query.js';
import type { AfterStored, Read } from '../recordings/after-stored.js';

// The sessions list's filters, once, for every read that takes them: the list, Insights and
// filtered heatmaps. Read as the list reads them: what they match is current first.

type ListQuery = Omit<SessionsQuery, 'cursor' | 'limit' | 'sort'>;

// A NUL never gets here: the one input rule (server/http/input-rules.ts) refuses it with a 400.

/** A text filter trimmed; empty is no filter. */
const filterText = (text: string | undefined) => text?.trim() || undefined;

/** `1920x1080` as [width, height] (the schema has checked its form). */
function screenSize(text: string | undefined): [number, number] | undefined {
  const size = text === undefined ? null : SCREEN_SIZE.exec(text);
  return size ? [Number(size[1]), Number(size[2])] : undefined;
}

/** The list's filters as the query gives them, as the repository takes them (the insights call takes the same). */
function listFilters(query: ListQuery): SessionFilters {
  // The funnel filters need the funnel: the routes read them (server/funnels/filter.ts).
  const { hasErrors, hasRageClicks, hasDeadClicks, hasQuickBacks, hasExcessiveScrolling, hasFrustration, hasFailedRequests, starred, screen, ...others } =
    query;
  const { trait, tag, funnel, step, outcome, unknown, ...rest } = others;
  const [search, url, browser, utm, utmSource, utmMedium, error] = [
    rest.search,
    rest.url,
    rest.browser,
    rest.utm,
    rest.utmSource,
    rest.utmMedium,
    rest.error,
  ].map(filterText);
  // People filters (user, event in rest) match what the page sent exactly: no trimming.
  const pair = (text: string | undefined) => (text === undefined ? undefined : (splitPair(text) ?? undefined));
  return {
    ...rest,
    search,
    url,
    browser,
    utm,
    utmSource,
    utmMedium,
    error,
    unknown: unknown === undefined ? undefined : [...new Set(unknown.split(',') as UnknownValue[])],
    screen: screenSize(screen),
    trait: pair(trait),
    tag: pair(tag),
    hasErrors: hasErrors === 'true',
    hasRageClicks: hasRageClicks === 'true',
    hasDeadClicks: hasDeadClicks === 'true',
    hasQuickBacks: hasQuickBacks === 'true',
    hasExcessiveScrolling: hasExcessiveScrolling === 'true',
    hasFrustration: hasFrustration === 'true',
    hasFailedRequests: hasFailedRequests === 'true',
    starred: starred === 'true',
  };
}

/**
 * The query's list filters with its funnel condition (404/400 for a funnel it cannot take), once
 * what they match is current: sessions that ended with no human input are bots now, not when the
 * next visitor arrives; what ingest's error log and funnel visit log hold is written.
 */
export async function readListFilters(ctx: { db: Db; afterStored: AfterStored }, campaignId: string, query: ListQuery): Promise<SessionFilters> {
  const filters = { ...listFilters(query), funnelCondition: await funnelCondition(ctx.db, campaignId, query) };
  const reads: Read[] = ['verdicts'];
  if (filters.error) reads.push('errors');
  if (query.funnel) reads.push('visits');
  await ctx.afterStored.flushFor(campaignId, ...reads);
  return filters;
}
