import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { authorize, browserFetch, CookieJar, postCallback, signIn } from '../helpers/signin.js';

/** The attributes of the Set-Cookie line for one cookie, lower-cased. */
function cookieAttributes(lines: string[], name: string): string[] {
  const line = lines.find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`no Set-Cookie for ${name} in ${JSON.stringify(lines)}`);
  return line
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
}

describe('sign-in through the built-in provider', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const api = (path: string, init: RequestInit = {}) => fetch(server.url + path, init);

  it('sends the browser to the provider with client id, callback, code flow, scopes, state and PKCE', async () => {
    const response = await api('/api/v1/auth/google/login', { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(`${server.config.publicUrl}/oidc/auth`);
    const query = Object.fromEntries(location.searchParams);
    expect(query).toMatchObject({
      client_id: 'tapedeck',
      redirect_uri: `${server.config.publicUrl}/auth/google/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(query.state.length).toBeGreaterThan(20);
    expect(query.code_challenge.length).toBeGreaterThan(40);
    const attributes = cookieAttributes(response.headers.getSetCookie(), 'td_signin');
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/v1/auth']));
    expect(attributes).not.toContain('secure');
  });

  it('signs a person in, creates the user and sets HttpOnly SameSite=Lax session cookies', async () => {
    const signedIn = await signIn(server, { name: 'Ada Lovelace', email: 'ada@example.test' });
    expect(signedIn.user).toEqual({ id: expect.any(String), name: 'Ada Lovelace', email: 'ada@example.test', picture: null });
    for (const name of ['td_access', 'td_refresh']) {
      const attributes = cookieAttributes(signedIn.setCookie, name);
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
      expect(attributes).not.toContain('secure');
    }
    expect(cookieAttributes(signedIn.setCookie, 'td_refresh')).toContain('path=/api/v1/auth');

    const me = await api('/api/v1/auth/me', { headers: signedIn.headers });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual(signedIn.user);
    const validation = await api('/api/v1/auth/validateToken', { headers: signedIn.headers });
    expect(await validation.json()).toEqual({ valid: true });
  });

  it('finds the same user again by email and updates the name', async () => {
    const first = await signIn(server, { name: 'Grace', email: 'grace@example.test' });
    const again = await signIn(server, { name: 'Grace Hopper', email: 'GRACE@example.test' });
    expect(again.user.id).toBe(first.user.id);
    expect(again.user.name).toBe('Grace Hopper');
    const other = await signIn(server, { name: 'Grace', email: 'other-grace@example.test' });
    expect(other.user.id).not.toBe(first.user.id);
  });

  it('hands back where the user wanted to go, but only paths of our own app', async () => {
    const inside = await authorize(server, { name: 'Lin', email: 'lin@example.test' }, '/api/v1/auth/google/login?returnTo=%2Fcampaign%2Fabc');
    expect((await (await postCallback(server, inside)).json()).returnTo).toBe('/campaign/abc');
    const outside = await authorize(server, { name: 'Lin', email: 'lin@example.test' }, '/api/v1/auth/google/login?returnTo=%2F%2Fevil.example');
    expect((await (await postCallback(server, outside)).json()).returnTo).toBe('/dashboard');
    const backslash = await authorize(server, { name: 'Lin', email: 'lin@example.test' }, '/api/v1/auth/google/login?returnTo=%2F%5Cevil.example');
    expect((await (await postCallback(server, backslash)).json()).returnTo).toBe('/dashboard');
  });

  it('answers 401 on /me and valid:false from validateToken without a valid access cookie', async () => {
    const me = await api('/api/v1/auth/me');
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ error: 'Unauthorized' });
    const forged = await api('/api/v1/auth/me', { headers: { cookie: 'td_access=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
    expect(forged.status).toBe(401);

    const none = await api('/api/v1/auth/validateToken');
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ valid: false, error: 'No access token' });
    const bad = await api('/api/v1/auth/validateToken', { headers: { cookie: 'td_access=garbage' } });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toEqual({ valid: false, error: 'Access token is invalid or expired' });
  });

  it('rejects a callback whose state does not match, and the attempt cannot be retried', async () => {
    const authorized = await authorize(server, { name: 'Eve', email: 'eve@example.test' });
    const code = authorized.callback.searchParams.get('code');
    const wrong = await postCallback(server, authorized, { code, state: 'not-the-state' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: 'Sign-in state does not match; please sign in again' });
    const retry = await postCallback(server, authorized);
    expect(retry.status).toBe(400);
    expect(await retry.json()).toEqual({ error: 'Sign-in expired or was started elsewhere; please sign in again' });
    expect(authorized.jar.get('td_access')).toBeUndefined();
  });

  it('answers 400 when the sign-in cookie is missing or was tampered with', async () => {
    const authorized = await authorize(server, { name: 'Tam', email: 'tam@example.test' });
    const signInCookie = authorized.jar.get('td_signin') ?? '';
    const body = JSON.stringify({ code: authorized.callback.searchParams.get('code'), state: authorized.callback.searchParams.get('state') });
    const tampered = signInCookie.slice(0, -4) + (signInCookie.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const cookie of ['', `td_signin=${tampered}`]) {
      const response = await api('/api/v1/auth/google/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.config.publicUrl, cookie },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Sign-in expired or was started elsewhere; please sign in again' });
    }
    // The untouched cookie still completes this very attempt.
    expect((await postCallback(server, authorized)).status).toBe(200);
  });

  it('answers 400 for a missing code, a missing body, unknown fields and malformed JSON', async () => {
    const authorized = await authorize(server, { name: 'Bob', email: 'bob@example.test' });
    const state = authorized.callback.searchParams.get('state');
    const cases: Array<[string | undefined, RegExp]> = [
      [JSON.stringify({ state }), /code/],
      [undefined, /body/],
      [JSON.stringify({ code: 'x', state, admin: true }), /unknown field "admin"/],
      ['{"code":', /Malformed JSON body/],
    ];
    for (const [body, error] of cases) {
      const response = await authorized.go('/api/v1/auth/google/callback', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.config.publicUrl },
        body,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(error);
    }
  });

  it('answers 400 when the provider refuses the code (a code used twice)', async () => {
    const first = await authorize(server, { name: 'Joan', email: 'joan@example.test' });
    expect((await postCallback(server, first)).status).toBe(200);
    // A new attempt (its own state cookie) that presents the already-redeemed code.
    const second = await authorize(server, { name: 'Joan', email: 'joan@example.test' });
    const replay = await postCallback(server, second, { code: first.callback.searchParams.get('code'), state: second.callback.searchParams.get('state') });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: 'Sign-in failed: the code could not be exchanged' });
  });

  it('refuses a cross-site sign-in callback (Origin check)', async () => {
    const authorized = await authorize(server, { name: 'Mallory', email: 'mallory@example.test' });
    const response = await authorized.go('/api/v1/auth/google/callback', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ code: authorized.callback.searchParams.get('code'), state: authorized.callback.searchParams.get('state') }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Forbidden' });
    expect(authorized.jar.get('td_access')).toBeUndefined();
  });

  it("the provider's form escapes what it echoes and insists on a name and a valid email", async () => {
    const jar = new CookieJar();
    const go = browserFetch(server, jar);
    let response = await go('/api/v1/auth/google/login');
    while (response.status >= 300 && response.status < 400) response = await go(response.headers.get('location') ?? '');
    const page = await response.text();
    expect(page).toContain('Name');
    expect(page).toContain('Email');
    expect(page).toContain('>Sign in</button>');
    const action = /action="([^"]+)"/.exec(page)?.[1] ?? '';
    const invalid = await go(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: '<script>alert(1)</script>', email: 'not-an-email' }).toString(),
    });
    expect(invalid.status).toBe(400);
    const again = await invalid.text();
    expect(again).toContain('Please enter a valid email address.');
    expect(again).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(again).not.toContain('<script>');
  });
});
