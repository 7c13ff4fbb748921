import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_PASSWORD, authorize, signIn, submitSignInForm } from '../helpers/signin.js';
import { userSession } from '../helpers/auth.js';
import { REFRESH_GRACE_MS } from '../../server/auth/tokens.js';

/** The value a Set-Cookie answer gives a cookie ('' when it clears it). */
function setCookieValue(response: Response, name: string): string | undefined {
  const line = response.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

describe('refresh: concurrent tabs keep the session, a late reuse still ends it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  const refresh = (token: string) =>
    fetch(`${server.url}/api/v1/auth/refresh`, { method: 'POST', headers: { origin: server.config.publicUrl, cookie: `td_refresh=${token}` } });
  const me = (access: string) => fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: `td_access=${access}` } });

  it('two simultaneous refreshes of the same token both succeed, and each result keeps working', async () => {
    const { jar } = await signIn(server, { name: 'Tabitha', email: 'tabitha@example.test' });
    const token = jar.get('td_refresh') ?? '';
    const answers = await Promise.all([refresh(token), refresh(token)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    for (const answer of answers) {
      const access = setCookieValue(answer, 'td_access') ?? '';
      const next = setCookieValue(answer, 'td_refresh') ?? '';
      expect(next).not.toBe('');
      expect(next).not.toBe(token);
      const who = await me(access);
      expect(who.status).toBe(200);
      expect((await who.json()).name).toBe('Tabitha');
    }
    // Each tab goes on refreshing with the token it was given.
    for (const answer of answers) expect((await refresh(setCookieValue(answer, 'td_refresh') ?? '')).status).toBe(200);
  });

  it('the same token presented after the grace window is a reuse: 401, and the whole family is revoked', async () => {
    const { jar } = await signIn(server, { name: 'Late', email: 'late@example.test' });
    const token = jar.get('td_refresh') ?? '';
    const rotated = await refresh(token);
    expect(rotated.status).toBe(200);
    const access = setCookieValue(rotated, 'td_access') ?? '';
    const newest = setCookieValue(rotated, 'td_refresh') ?? '';
    // The rotation happened longer ago than the grace window (the clock moved on, not the test).
    await server.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: Date.now() - REFRESH_GRACE_MS - 1000 })
      .where('rotated_at', 'is not', null)
      .where('revoked_at', 'is', null)
      .execute();
    const reused = await refresh(token);
    expect(reused.status).toBe(401);
    expect(setCookieValue(reused, 'td_refresh')).toBe('');
    expect((await me(access)).status).toBe(401);
    expect((await refresh(newest)).status).toBe(401);
  });
});

describe('sign-in and refresh attempts are limited per IP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_SIGNIN_PER_IP: '3', RATE_REFRESH_PER_IP: '3' });
  });
  afterAll(() => server?.close());

  const expectTooMany = async (response: Response) => {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await response.json()).error).toMatch(/^Too many requests/);
  };

  it('password guesses on the form: past RATE_SIGNIN_PER_IP a minute, 429 with Retry-After, and the right password waits too', async () => {
    const { jar, go } = await authorize(server, { name: 'Vic', email: 'vic@example.test' });
    expect(jar.get('td_signin')).toBeTruthy();
    let page = await go('/api/v1/auth/google/login');
    while (page.status >= 300 && page.status < 400) page = await go(new URL(page.headers.get('location') ?? '', page.url).href);
    const action = /action="([^"]+)"/.exec(await page.text())?.[1].replace(/&amp;/g, '&') ?? '';
    const guess = (password: string) =>
      go(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'vic@example.test', password }).toString(),
      });
    // One POST went into signing Vic up; two more guesses are answered with the message.
    for (const password of ['guess one', 'guess two']) {
      const wrong = await guess(password);
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain('Wrong email or password.');
    }
    await expectTooMany(await guess(TEST_PASSWORD));
  });

  it('starting sign-in (GET /api/v1/auth/google/login) is limited the same way', async () => {
    const login = () => fetch(`${server.url}/api/v1/auth/google/login`, { redirect: 'manual' });
    // Two were used by the test above.
    expect((await login()).status).toBe(302);
    await expectTooMany(await login());
  });

  it('finishing sign-in (POST /api/v1/auth/google/callback) is limited the same way, so a kept sign-in cookie cannot drive code exchanges without end', async () => {
    const callback = () =>
      fetch(`${server.url}/api/v1/auth/google/callback`, {
        method: 'POST',
        headers: { origin: server.config.publicUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'not-a-code', state: 'not-a-state' }),
      });
    for (let i = 0; i < 3; i++) expect((await callback()).status).toBe(400);
    await expectTooMany(await callback());
  });

  it('refresh: past RATE_REFRESH_PER_IP a minute, 429 with Retry-After, and the session is untouched', async () => {
    const token = (await userSession(server)).cookie.split('td_refresh=')[1] ?? '';
    const refresh = (value: string) =>
      fetch(`${server.url}/api/v1/auth/refresh`, { method: 'POST', headers: { origin: server.config.publicUrl, cookie: `td_refresh=${value}` } });
    let current = token;
    for (let i = 0; i < 3; i++) {
      const answer = await refresh(current);
      expect(answer.status).toBe(200);
      current = setCookieValue(answer, 'td_refresh') ?? '';
    }
    const limited = await refresh(current);
    expect(setCookieValue(limited, 'td_refresh')).toBeUndefined();
    await expectTooMany(limited);
    const revoked = await server.db.selectFrom('refresh_tokens').select('id').where('revoked_at', 'is not', null).execute();
    expect(revoked).toEqual([]);
  });
});

/**
 * A fetch whose requests come from this loopback address (Linux routes all of 127.0.0.0/8 to the
 * loopback device), so the server sees each as another client. No redirects are followed.
 */
function fetchFrom(localAddress: string): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = String(input);
      const headers = Object.fromEntries(new Headers(init.headers));
      const request = http.request(url, { method: init.method ?? 'GET', headers, localAddress }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const responseHeaders = new Headers();
          for (let i = 0; i < answer.rawHeaders.length; i += 2) responseHeaders.append(answer.rawHeaders[i] ?? '', answer.rawHeaders[i + 1] ?? '');
          const response = new Response(Buffer.concat(chunks), { status: answer.statusCode, headers: responseHeaders });
          Object.defineProperty(response, 'url', { value: url });
          resolve(response);
        });
      });
      request.on('error', reject);
      request.end(typeof init.body === 'string' ? init.body : undefined);
    });
}

describe('password guesses at one email are limited per account, from any number of addresses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_SIGNIN_PER_IP: '2', RATE_SIGNIN_PER_ACCOUNT: '3' });
  });
  afterAll(() => server?.close());

  // Each attempt from an address of its own: far below RATE_SIGNIN_PER_IP for every one of them.
  let nextAddress = 10;
  const attempt = (fields: Record<string, string>) => submitSignInForm(server, fields, fetchFrom(`127.0.0.${nextAddress++}`));

  it('past RATE_SIGNIN_PER_ACCOUNT a minute: 429 with Retry-After, the right password waits too, other emails are not held up', async () => {
    // Quinn signs up (one post for the email); two wrong guesses are answered with the message.
    expect((await attempt({ name: 'Quinn', email: 'quinn@example.test', password: TEST_PASSWORD })).status).toBe(303);
    for (const password of ['guess one', 'Guess@Two']) expect((await attempt({ email: 'Quinn@Example.test', password })).status).toBe(401);
    const limited = await attempt({ email: 'quinn@example.test', password: TEST_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error).toMatch(/^Too many requests/);
    // Counted per email, so an email without an account is throttled alike and tells nothing…
    for (let i = 0; i < 3; i++) expect((await attempt({ email: 'nobody@example.test', password: 'a guess here' })).status).toBe(401);
    expect((await attempt({ email: 'nobody@example.test', password: 'a guess here' })).status).toBe(429);
    // …and somebody else still gets in.
    expect((await attempt({ name: 'Rae', email: 'rae@example.test', password: TEST_PASSWORD })).status).toBe(303);
  });
});

describe("the built-in provider's authorization endpoint is limited per IP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_SIGNIN_PER_IP: '2' });
  });
  afterAll(() => server?.close());

  it('each visit of /oidc/auth stores a sign-in in flight, so past RATE_SIGNIN_PER_IP a minute it answers 429 and stores nothing', async () => {
    const query = new URLSearchParams({
      client_id: 'tapedeck',
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${server.config.publicUrl}/auth/google/callback`,
      state: 'state',
      nonce: 'nonce',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const visit = () => fetch(`${server.url}/oidc/auth?${query}`, { redirect: 'manual' });
    const stored = async () => (await server.db.selectFrom('oidc_models').select('id').execute()).length;
    for (let i = 0; i < 2; i++) expect((await visit()).status).toBe(303);
    const before = await stored();
    expect(before).toBeGreaterThan(0);
    const limited = await visit();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stored()).toBe(before);
  });
});
