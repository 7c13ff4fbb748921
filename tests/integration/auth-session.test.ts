import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { signIn } from '../helpers/signin.js';

/** The value a Set-Cookie answer gives a cookie ('' when it clears it). */
function setCookieValue(response: Response, name: string): string | undefined {
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

describe('session refresh and logout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const origin = () => new URL(server.config.publicUrl).origin;
  const post = (path: string, cookie: string, headers: Record<string, string> = { origin: origin() }) =>
    fetch(server.url + path, { method: 'POST', headers: { ...headers, cookie } });
  const refresh = (token: string) => post('/api/v1/auth/refresh', `td_refresh=${token}`);

  it('rotates the refresh token: the new one works, and reusing the old one revokes the family', async () => {
    const { jar } = await signIn(server, { name: 'Rita', email: 'rita@example.test' });
    const first = jar.get('td_refresh') ?? '';

    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    expect(await rotated.json()).toEqual({ ok: true });
    const second = setCookieValue(rotated, 'td_refresh') ?? '';
    const access = setCookieValue(rotated, 'td_access') ?? '';
    expect(second).not.toBe(first);
    const me = await fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: `td_access=${access}` } });
    expect((await me.json()).name).toBe('Rita');

    const third = await refresh(second);
    expect(third.status).toBe(200);
    const newest = setCookieValue(third, 'td_refresh') ?? '';

    // Someone replays the first token: it fails, and the whole family goes with it.
    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect(await reused.json()).toEqual({ error: 'Unauthorized' });
    expect(setCookieValue(reused, 'td_refresh')).toBe('');
    const afterReuse = await refresh(newest);
    expect(afterReuse.status).toBe(401);
    // The access token of that family ends with it, not when it expires.
    const meAfterReuse = await fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: `td_access=${access}` } });
    expect(meAfterReuse.status).toBe(401);
  });

  it('answers 401 without a refresh token or with an unknown one, also with an empty JSON request', async () => {
    const none = await post('/api/v1/auth/refresh', '');
    expect(none.status).toBe(401);
    // Nothing to clear: a late answer to a signed-out page's refresh must not wipe the cookies a
    // sign-in finishing at the same moment has just set.
    expect(none.headers.getSetCookie()).toEqual([]);
    const unknown = await fetch(`${server.url}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { origin: origin(), cookie: 'td_refresh=unknown', 'content-type': 'application/json' },
    });
    expect(unknown.status).toBe(401);
  });

  it('logout revokes the session and clears the cookies', async () => {
    const { jar, headers } = await signIn(server, { name: 'Lou', email: 'lou@example.test' });
    const token = jar.get('td_refresh') ?? '';
    const logout = await fetch(`${server.url}/api/v1/auth/logout`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ ok: true });
    expect(setCookieValue(logout, 'td_access')).toBe('');
    expect(setCookieValue(logout, 'td_refresh')).toBe('');
    expect((await refresh(token)).status).toBe(401);
    // A copy of the access cookie kept from before the logout no longer opens anything.
    const me = await fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: `td_access=${jar.get('td_access')}` } });
    expect(me.status).toBe(401);
    const campaigns = await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: { cookie: `td_access=${jar.get('td_access')}` } });
    expect(campaigns.status).toBe(401);
  });

  it('logout answers ok without a session', async () => {
    const response = await post('/api/v1/auth/logout', '');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('refuses cross-site refresh and logout (Origin and Sec-Fetch-Site checks)', async () => {
    const { jar, cookie } = await signIn(server, { name: 'Carl', email: 'carl@example.test' });
    const token = jar.get('td_refresh') ?? '';
    const crossRefresh = await post('/api/v1/auth/refresh', `td_refresh=${token}`, { origin: 'https://evil.example' });
    expect(crossRefresh.status).toBe(403);
    const crossLogout = await post('/api/v1/auth/logout', cookie, { 'sec-fetch-site': 'cross-site' });
    expect(crossLogout.status).toBe(403);
    // Neither did anything: the session still refreshes.
    expect((await refresh(token)).status).toBe(200);
  });
});
