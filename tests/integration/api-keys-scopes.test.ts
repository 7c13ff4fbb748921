import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOfEverything, requestOf, type OwnedThings } from './every-route-support.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../common/api-keys.js';
import { KEY_NOT_TAKEN, missingScope } from '../../server/api-keys/authenticate.js';
import { ROUTE_SCOPES, routeScope } from '../../server/api-keys/scopes.js';
import type { ApiRoute } from '../../server/http/input-rules.js';

// The scope matrix (server/api-keys/scopes.ts), route by route: every /api/v1 route is in the one
// map, with a scope or as taking no key, and every route is called with a real key of each scope,
// without a cookie. What each key should hear is derived from the map: the route's scope answers
// as the owner would be answered (no 401 or 403); another scope hears 403 naming the scope it
// lacks; a route that takes no key answers 403 for every key. A route that forgot to ask the map
// would answer a key of the wrong scope, and fail here.

let things: OwnedThings;
let routes: ApiRoute[];
const keys = {} as Record<ApiKeyScope, string>;

const name = (route: ApiRoute) => `${route.method} ${route.url}`;

beforeAll(async () => {
  things = await ownerOfEverything({ API_KEY_RATE_PER_MIN: '100000' });
  const workspaces = (await (await fetch(`${things.server.url}/api/v1/workspaces`, { headers: things.owner.headers })).json()) as {
    data: { id: string; personal: boolean }[];
  };
  // The owner's personal workspace holds every thing the walk names; keys are made there without a workspace_id.
  things.ids.workspaceId = workspaces.data.find((w) => w.personal)?.id as string;
  for (const scope of API_KEY_SCOPES) {
    const res = await fetch(`${things.server.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { ...things.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: scope, scopes: [scope] }),
    });
    keys[scope] = ((await res.json()) as { data: { key: string } }).data.key;
  }
  // Erasures (of the session, its person, the campaign) last, so every route finds its things.
  const rank = (route: ApiRoute) => (route.method !== 'DELETE' ? 0 : route.url.startsWith('/api/v1/campaign/') ? 2 : 1);
  routes = [...things.server.app.ctx.apiRoutes].sort((a, b) => rank(a) - rank(b));
}, 120_000);
afterAll(async () => things?.server.close());

async function call(route: ApiRoute, key: string) {
  const { path, body } = requestOf(route, things.ids);
  const res = await fetch(`${things.server.url}${path}`, {
    method: route.method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(20_000),
  });
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  const error = json && res.status >= 400 ? ((await res.json()) as { error?: string }).error : void (await res.body?.cancel());
  return { status: res.status, error };
}

describe('the scope of every /api/v1 route', () => {
  it('is in the one map: a scope, or no key taken', () => {
    const missing = routes.map(name).filter((route) => !(route in ROUTE_SCOPES));
    expect(missing).toEqual([]);
    // Nothing in the map that the server does not register (a renamed route would leave its old name).
    const registered = new Set(routes.map(name));
    expect(Object.keys(ROUTE_SCOPES).filter((route) => !registered.has(route))).toEqual([]);
    // Every scope opens some route; sign-in, the account, workspaces and keys take none.
    const used = new Set(Object.values(ROUTE_SCOPES));
    expect(API_KEY_SCOPES.filter((scope) => !used.has(scope))).toEqual([]);
    const keyed = routes.filter((route) => routeScope(route.method, route.url) !== null).map(name);
    expect(keyed.filter((route) => /\/(auth|account|workspaces|invites|api-keys|ingest|shared|config)\b/.test(route))).toEqual([]);
  });

  it('lets each key reach exactly the routes of its scope', async () => {
    const wrong: string[] = [];
    let allowed = 0;
    for (const route of routes) {
      const scope = routeScope(route.method, route.url);
      // The key that may (and, for a deletion, does) act last: the others are refused before anything happens.
      const order = [...API_KEY_SCOPES].sort((a, b) => Number(a === scope) - Number(b === scope));
      for (const held of order) {
        const answer = await call(route, keys[held]);
        const fine =
          scope === null
            ? answer.status === 403 && answer.error === KEY_NOT_TAKEN
            : held === scope
              ? answer.status < 500 && answer.status !== 401 && answer.status !== 403 && answer.status !== 404
              : answer.status === 403 && answer.error === missingScope(scope);
        if (held === scope && fine) allowed++;
        if (!fine) wrong.push(`${name(route)} (${scope ?? 'no key'}) with ${held}: ${answer.status} ${answer.error ?? ''}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(allowed).toBe(Object.values(ROUTE_SCOPES).filter((scope) => scope !== null).length);
  }, 300_000);
});
