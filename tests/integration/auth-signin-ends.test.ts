import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_SESSION_SECONDS } from '../../server/auth/local-provider.js';
import { subjectForEmail } from '../../server/auth/local-accounts.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { browserFetch, signIn, type SignedIn } from '../helpers/signin.js';

/**
 * The built-in provider keeps a session and a grant of its own in the browser that signed in.
 * Neither may let that browser back in without the password: not by dropping `prompt=login`
 * from the authorization URL, not after the account signed out everywhere or revoked the device.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

/** The built-in provider's records (sessions, grants, codes, tokens) that name this email's account. */
async function providerRecords(email: string): Promise<string[]> {
  const rows = await server.db.selectFrom('oidc_models').select(['model', 'payload']).execute();
  const accountId = subjectForEmail(email);
  return rows.filter((row) => (JSON.parse(row.payload) as { accountId?: string }).accountId === accountId).map((row) => row.model);
}

/**
 * The browser that signed in starts sign-in again, but takes `prompt=login` out of the provider's
 * authorization URL: where does it end up — on the password form, or back at the callback page with a code?
 */
async function signInAgainWithoutPrompt(signedIn: SignedIn): Promise<'form' | 'callback'> {
  const go = browserFetch(server, signedIn.jar);
  const start = await go('/api/v1/auth/google/login');
  const authorize = new URL(start.headers.get('location') ?? '');
  expect(authorize.searchParams.get('prompt')).toBe('login');
  authorize.searchParams.delete('prompt');
  let response = await go(authorize.href);
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
    const location = new URL(response.headers.get('location') ?? '', response.url);
    if (location.pathname === '/auth/google/callback') return location.searchParams.has('code') ? 'callback' : 'form';
    response = await go(location.href);
  }
  const page = await response.text();
  expect(response.status).toBe(200);
  expect(page).toMatch(/<input name="password" type="password"/);
  return 'form';
}

/** A browser that signed in through the real flow, the provider's cookies still in its jar. */
const signedInBrowser = (name: string) => signIn(server, { name, email: `${name.toLowerCase()}@example.test` });

describe("the built-in provider's own sign-in", () => {
  it('always asks for the password: a browser that signed in a moment ago and drops prompt=login gets the form, not a code', async () => {
    const browser = await signedInBrowser('Prompt');
    expect(await providerRecords('prompt@example.test')).toContain('Session');
    expect(await signInAgainWithoutPrompt(browser)).toBe('form');
  });

  it('is short and not renewed on use: visiting the provider again leaves its end where the password put it', async () => {
    const browser = await signedInBrowser('Renewal');
    const accountId = subjectForEmail('renewal@example.test');
    const sessions = (await server.db.selectFrom('oidc_models').select(['id', 'payload', 'expires_at']).where('model', '=', 'Session').execute()).filter(
      (row) => (JSON.parse(row.payload) as { accountId?: string }).accountId === accountId,
    );
    expect(sessions).toHaveLength(1);
    const session = sessions[0]!;
    const loginTs = (JSON.parse(session.payload) as { loginTs: number }).loginTs;
    expect(session.expires_at).toBeLessThanOrEqual((loginTs + PROVIDER_SESSION_SECONDS + 1) * 1000);
    // As if the password was typed 110 s ago: 10 s of the session are left.
    const earlier = loginTs - 110;
    const payload = { ...(JSON.parse(session.payload) as object), loginTs: earlier };
    await server.db
      .updateTable('oidc_models')
      .set({ payload: JSON.stringify(payload), expires_at: (earlier + PROVIDER_SESSION_SECONDS) * 1000 })
      .where('model', '=', 'Session')
      .where('id', '=', session.id)
      .execute();
    expect(await signInAgainWithoutPrompt(browser)).toBe('form');
    const after = await server.db.selectFrom('oidc_models').select('expires_at').where('model', '=', 'Session').where('id', '=', session.id).executeTakeFirst();
    // Still there (the visit read it), and still ending when it did.
    expect(after?.expires_at).toBeLessThanOrEqual((earlier + PROVIDER_SESSION_SECONDS + 1) * 1000);
  });
});

describe("signing out ends the built-in provider's session and grants of the account", () => {
  it('"sign out everywhere"', async () => {
    const browser = await signedInBrowser('Everywhere');
    expect(await providerRecords('everywhere@example.test')).toEqual(expect.arrayContaining(['Session', 'Grant']));
    const answer = await fetch(`${server.url}/api/v1/account/sign-out-everywhere`, { method: 'POST', headers: browser.headers });
    expect(answer.status).toBe(200);
    expect(await providerRecords('everywhere@example.test')).toEqual([]);
    expect(await signInAgainWithoutPrompt(browser)).toBe('form');
  });

  it('revoking a device', async () => {
    const browser = await signedInBrowser('Device');
    const other = await signedInBrowser('Device');
    const list = (await (await fetch(`${server.url}/api/v1/account/sign-ins`, { headers: other.headers })).json()) as {
      signIns: Array<{ id: string; current: boolean }>;
    };
    const device = list.signIns.find((s) => !s.current);
    expect(device).toBeDefined();
    const answer = await fetch(`${server.url}/api/v1/account/sign-ins/${device?.id}`, { method: 'DELETE', headers: other.headers });
    expect(answer.status).toBe(200);
    expect(await providerRecords('device@example.test')).toEqual([]);
    expect(await signInAgainWithoutPrompt(browser)).toBe('form');
  });

  it('deleting the account', async () => {
    const browser = await signedInBrowser('Leaving');
    const answer = await fetch(`${server.url}/api/v1/account`, {
      method: 'DELETE',
      headers: { ...browser.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: 'leaving@example.test' }),
    });
    expect(answer.status).toBe(200);
    expect(await providerRecords('leaving@example.test')).toEqual([]);
  });

  it("another account's provider records are left alone", async () => {
    await signedInBrowser('Bystander');
    const browser = await signedInBrowser('Signer');
    await fetch(`${server.url}/api/v1/account/sign-out-everywhere`, { method: 'POST', headers: browser.headers });
    expect(await providerRecords('bystander@example.test')).toEqual(expect.arrayContaining(['Session', 'Grant']));
  });
});
