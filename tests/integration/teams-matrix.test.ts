import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSession } from '../helpers/auth.js';
import { ownerOfEverything, requestOf, type OwnedThings } from './every-route-support.js';
import { can, isPermission, missingPermission, PERMISSIONS, ROLES, type Permission, type Role } from '../../common/teams.js';
import type { ApiRoute } from '../../server/http/input-rules.js';

// The permission matrix (common/teams.ts), route by route: every /api/v1 route declares the
// permission it needs (or why it needs none), and every route that declares one is called as the
// owner, an admin, a member and a viewer of the workspace, as a member of another workspace only
// and as a removed member. What each should hear is derived from the matrix and the route's
// declared permission: a role without it hears 403 naming it; with it, anything but a refusal;
// someone outside the workspace hears what an unknown thing answers (404). A route that forgot to ask the module
// would answer a viewer's write, and fail here.

type Caller = Role | 'outsider' | 'removed';
type Session = Awaited<ReturnType<typeof userSession>>;

let things: OwnedThings;
let callers: Record<Caller, Session>;
let routes: ApiRoute[];

async function send(session: Session, method: string, path: string, body?: unknown) {
  const res = await fetch(`${things.server.url}${path}`, {
    method,
    headers: { ...session.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as { data: Record<string, string> };
}

/** A user who joins the workspace with the role through an invite, as a client would. */
async function joined(name: string, role: Exclude<Role, 'owner'>): Promise<Session> {
  const user = await userSession(things.server, name);
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`;
  const invite = await send(things.owner, 'POST', `/api/v1/workspaces/${things.ids.workspaceId}/invites`, { email, role });
  await send(user, 'POST', `/api/v1/invites/${invite.data.url.split('/invite/')[1]}/accept`, {});
  return user;
}

beforeAll(async () => {
  things = await ownerOfEverything();
  // The owner's personal workspace holds every thing the walk names (its campaign, session, funnel…).
  const workspaces = await (await fetch(`${things.server.url}/api/v1/workspaces`, { headers: things.owner.headers })).json();
  things.ids.workspaceId = (workspaces as { data: { id: string; personal: boolean }[] }).data.find((w) => w.personal)?.id as string;
  const admin = await joined('Matrix Admin', 'admin');
  const member = await joined('Matrix Member', 'member');
  const viewer = await joined('Matrix Viewer', 'viewer');
  const removed = await joined('Matrix Removed', 'member');
  await send(things.owner, 'DELETE', `/api/v1/workspaces/${things.ids.workspaceId}/members/${removed.userId}`);
  const outsider = await userSession(things.server, 'Matrix Outsider');
  // The member whose role is changed and who is removed, and the invite revoked and sent again.
  things.ids.memberId = (await joined('Matrix Target', 'viewer')).userId;
  const invite = await send(things.owner, 'POST', `/api/v1/workspaces/${things.ids.workspaceId}/invites`, { email: 'pending@example.test', role: 'viewer' });
  things.ids.inviteId = invite.data.id;
  callers = { owner: things.owner, admin, member, viewer, outsider, removed };
  // Destructive routes last, and erasures (of the session, its person, the campaign) very last, so every route finds its
  // things; an invite is sent again after the revocations (a revoked invite may be sent again).
  const rank = (route: ApiRoute) =>
    route.url.startsWith('/api/v1/workspaces/') && route.url.endsWith('/resend')
      ? 2
      : route.method !== 'DELETE'
        ? 0
        : route.url.startsWith('/api/v1/campaign/')
          ? 4
          : route.permission === 'data.erase'
            ? 3
            : 1;
  routes = [...things.server.app.ctx.apiRoutes].sort((a, b) => rank(a) - rank(b));
}, 120_000);
afterAll(async () => things?.server.close());

const name = (route: ApiRoute) => `${route.method} ${route.url}`;

async function call(route: ApiRoute, caller: Caller) {
  const { path, body } = requestOf(route, things.ids);
  const res = await fetch(`${things.server.url}${path}`, {
    method: route.method,
    headers: { ...callers[caller].headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(20_000),
  });
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  // A live stream that opened is left at once: its status is the answer.
  const error = json && res.status >= 400 ? ((await res.json()) as { error?: string }).error : void (await res.body?.cancel());
  return { status: res.status, error };
}

/**
 * What the matrix says the caller hears from a route that needs `permission`. `gone`: an earlier
 * caller allowed to deleted the thing, so a later one allowed to hears that it is not there.
 */
function expected(permission: Permission, caller: Caller, answer: { status: number; error?: string }, gone: boolean): boolean {
  const refusal = answer.status === 403 && answer.error === missingPermission(permission);
  const unseen = answer.status === 404;
  if (caller === 'outsider' || caller === 'removed') return unseen;
  if (!can(caller, permission)) return refusal;
  if (gone && answer.status === 404) return true;
  return !refusal && !unseen && answer.status < 500 && answer.status !== 401;
}

describe('the permission matrix', () => {
  it('is declared by every /api/v1 route: a permission of the matrix, or why it needs none', () => {
    const undeclared = routes.filter((route) => !(route.permission && isPermission(route.permission)) && !route.access).map(name);
    expect(undeclared).toEqual([]);
    // Only sign-in, the tracker's, the public and the account's own calls need no workspace's permission.
    const free = routes.filter((route) => route.access).map(name);
    expect(free.every((route) => /\/(auth|account|ingest|shared|config|replay\/retrieve\/demo|workspaces|invites)\b/.test(route))).toBe(true);
    // Every permission of the matrix is some route's (but the transfer, which is a role change to owner).
    const used = new Set(routes.map((route) => route.permission));
    expect(Object.keys(PERMISSIONS).filter((p) => !used.has(p as Permission))).toEqual(['workspace.transfer']);
  });

  it('answers every caller of every route as the matrix says', async () => {
    const wrong: string[] = [];
    let calls = 0;
    for (const route of routes) {
      const permission = route.permission;
      if (!permission) continue;
      let gone = false;
      for (const caller of ['outsider', 'removed', ...[...ROLES].reverse()] as Caller[]) {
        const answer = await call(route, caller);
        calls++;
        if (!expected(permission, caller, answer, gone)) wrong.push(`${name(route)} (${permission}) as ${caller}: ${answer.status} ${answer.error ?? ''}`);
        gone ||= route.method === 'DELETE' && answer.status < 300;
      }
    }
    expect(wrong).toEqual([]);
    expect(calls).toBeGreaterThan(45 * 6);
  }, 300_000);
});
