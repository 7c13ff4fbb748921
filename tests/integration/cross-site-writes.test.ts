import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWrite, ownerOfEverything, pathOf, sample, type OwnedThings } from './every-route-support.js';
import type { ApiRoute } from '../../server/http/input-rules.js';

// Every write under /api/v1 that a signed-in owner's cookies could carry answers 403 when another
// site sends it (server/http/origin.ts, one hook for all), before it changes anything.

/** The writes other sites may send, each with why; every other write must refuse them. */
const EXEMPT: Record<string, string> = {
  'POST /api/v1/ingest/:campaignId': "the tracker posts batches from the visited site's pages; ingest checks the Origin against the campaign's domains instead",
};

let things: OwnedThings;
let writes: ApiRoute[];

beforeAll(async () => {
  things = await ownerOfEverything();
  writes = things.server.app.ctx.apiRoutes.filter(isWrite);
});
afterAll(async () => things?.server.close());

const name = (route: ApiRoute) => `${route.method} ${route.url}`;

async function sendFrom(route: ApiRoute, headers: Record<string, string>) {
  const { server, owner, ids } = things;
  // A body the route's schema accepts, so only the origin can refuse it.
  const body = route.schema.body ? JSON.stringify(sample(route.schema.body)) : undefined;
  const res = await fetch(`${server.url}${pathOf(route, ids)}`, {
    method: route.method,
    headers: { cookie: owner.cookie, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  return { status: res.status, body: await res.text() };
}

describe('a cookie-authenticated write from another site', () => {
  it('is exempt only where the route says why, and those are the documented ones', () => {
    const exempt = Object.fromEntries(writes.filter((route) => route.crossSite).map((route) => [name(route), route.crossSite]));
    expect(Object.keys(exempt).sort()).toEqual(Object.keys(EXEMPT).sort());
    // The walk covers the whole API: every area has writes (campaigns, notes, shares, heatmaps…).
    expect(writes.length).toBeGreaterThan(25);
  });

  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site cross-site and no Origin', { 'sec-fetch-site': 'cross-site' }],
  ])('answers 403 on every other write under /api/v1, sent with %s', async (_, headers) => {
    const answers: Record<string, number> = {};
    for (const route of writes) if (!EXEMPT[name(route)]) answers[name(route)] = (await sendFrom(route, headers)).status;
    expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((key) => [key, 403])));
  });

  it('leaves the owner’s things as they were', async () => {
    const { server, owner, ids } = things;
    const get = async (path: string) => (await fetch(`${server.url}${path}`, { headers: owner.headers })).json();
    expect(await get(`/api/v1/heatmaps/${ids.campaignId}/patterns`)).toEqual({ patterns: ['/cart'] });
    expect(((await get(`/api/v1/replay/share/${ids.campaignId}/${ids.sessionId}`)) as { links: unknown[] }).links).toHaveLength(1);
    expect(((await get('/api/v1/campaign/getAll')) as { data: { name: string }[] }).data.map((c) => c.name)).toEqual(['Every route']);
    expect(((await get(`/api/v1/notes/${ids.campaignId}/${ids.sessionId}`)) as { notes: { text: string }[] }).notes.map((n) => n.text)).toEqual(['Look here']);
  });

  it('is still taken from our own origin (a write with the owner’s Origin is not refused)', async () => {
    const route = writes.find((r) => r.method === 'PUT' && r.url.endsWith('/patterns')) as ApiRoute;
    const res = await fetch(`${things.server.url}${pathOf(route, things.ids)}`, {
      method: 'PUT',
      headers: { ...things.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ patterns: ['/cart'] }),
    });
    expect(res.status).toBe(200);
  });
});
