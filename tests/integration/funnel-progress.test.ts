import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { sessionRow } from '../../server/sessions/rows.js';
import { pageOrder, progress, reachedStep, visitOrder } from '../../server/funnels/progress.js';
import type { FunnelStep, Visit } from '../../common/funnels.js';
import { serverWithCampaign } from './ingest-support.js';

// A funnel's progress has two forms (server/funnels/progress.ts): JavaScript over a session's
// visits in order (the funnel's results) and SQL over session_pages or session_visits (the list's
// funnel filters). For random sessions and funnels, a session reaches step N in SQL exactly when
// the JavaScript says it got at least that far — on this database.

let { server, campaignId } = {} as Awaited<ReturnType<typeof serverWithCampaign>>;
beforeAll(async () => {
  ({ server, campaignId } = await serverWithCampaign('Progress Owner'));
});
afterAll(async () => server?.close());

const PAGES = ['/', '/cart', '/pay'];
const visit = fc.oneof(
  fc.record({ kind: fc.constant('page' as const), value: fc.constantFrom(...PAGES), text: fc.constant(''), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('click' as const), value: fc.constantFrom('#add', '#help'), text: fc.constantFrom('Add', 'Help', ''), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('event' as const), value: fc.constantFrom('checkout', 'paid'), text: fc.constant(''), at: fc.nat(20) }),
);
const pageStep = fc.constantFrom(...PAGES).map((page): FunnelStep => ({ page }));
const anyStep = fc.oneof(
  pageStep,
  fc.constantFrom('#add', 'Add', 'Help').map((click): FunnelStep => ({ click })),
  fc.constantFrom('checkout', 'paid').map((event): FunnelStep => ({ event })),
);
const funnel = fc.record({
  steps: fc.oneof(fc.array(pageStep, { minLength: 1, maxLength: 4 }), fc.array(anyStep, { minLength: 1, maxLength: 4 })),
  withinMs: fc.constantFrom(0, 3, 10, 1000),
});

describe("a funnel's progress", () => {
  it('is the same in SQL as in JavaScript, on this database', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(visit, { maxLength: 8 }), { minLength: 1, maxLength: 4 }), funnel, async (sessions, { steps, withinMs }) => {
        const ids = sessions.map((_, i) => `progress-${round}-${i}`);
        round++;
        const rowsOf = sessions.map((visits, i) => ({
          pages: visits
            .filter((v) => v.kind === 'page')
            .map((v, position) => ({ campaign_id: campaignId, session_id: ids[i], position, path: v.value, at: v.at })),
          visits: visits.map((v, seq) => ({ campaign_id: campaignId, session_id: ids[i], seq, ...v })),
        }));
        await server.db
          .insertInto('sessions')
          .values(ids.map((id) => sessionRow({ campaign_id: campaignId, id, started_at: 1, last_activity_at: 1 })))
          .execute();
        const pages = rowsOf.flatMap((r) => r.pages);
        const visits = rowsOf.flatMap((r) => r.visits);
        if (pages.length) await server.db.insertInto('session_pages').values(pages).execute();
        if (visits.length) await server.db.insertInto('session_visits').values(visits).execute();

        const pageOnly = steps.every((step) => 'page' in step);
        const inJs = rowsOf.map((r) => {
          const ordered: Visit[] = pageOnly
            ? [...r.pages].sort(pageOrder).map((p) => ({ kind: 'page', value: p.path, at: p.at }))
            : [...r.visits].sort(visitOrder).map(({ kind, value, text, at }) => ({ kind, value, text, at }));
          return progress(ordered, steps, withinMs).reached;
        });
        for (let n = 1; n <= steps.length; n++) {
          const found = await server.db
            .selectFrom('sessions')
            .select('id')
            .where('campaign_id', '=', campaignId)
            .where('id', 'in', ids)
            .where(sql<boolean>`${reachedStep(server.db, steps, withinMs, n)}`)
            .execute();
          const inSql = new Set(found.map((row) => row.id));
          expect(
            ids.map((id) => inSql.has(id)),
            `step ${n}`,
          ).toEqual(inJs.map((reached) => reached >= n));
        }
      }),
      { numRuns: 60 },
    );
  });
});
