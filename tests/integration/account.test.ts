import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { signIn } from '../helpers/signin.js';
import { upsertUser } from '../../server/auth/users.js';
import { ACCESS_COOKIE, REFRESH_COOKIE, createSessionTokens } from '../../server/auth/tokens.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import { createShare } from '../../server/shares/repository.js';
import { SIGN_IN_NOT_FOUND } from '../../server/auth/sign-ins.js';
import { WRONG_CONFIRMATION } from '../../common/account.js';
import type { SignInList } from '../../common/api/account.js';
import { housekeeping } from '../../server/cluster/jobs.js';
import { createCampaign, info, pageEvents, postBatch, sessionId } from './ingest-support.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

type Device = { cookie: string; access: string; refresh: string; headers: { cookie: string; origin: string } };

/** One more sign-in of a user, from a browser with this User-Agent (as the callback records it). */
async function device(userId: string, userAgent?: string): Promise<Device> {
  const { access, refresh } = await createSessionTokens(server.db, server.app.ctx.keys, userId, userAgent);
  const cookie = `${ACCESS_COOKIE}=${access}; ${REFRESH_COOKIE}=${refresh}`;
  return { cookie, access, refresh, headers: { cookie, origin: server.config.publicUrl } };
}

async function person(email: string) {
  const userId = await upsertUser(server.db, { subject: `test|${email}`, name: email.split('@')[0], email, picture: null });
  return userId;
}

const listSignIns = (headers: Record<string, string>) => fetch(`${server.url}/api/v1/account/sign-ins`, { headers });
const signOut = (id: string, headers: Record<string, string>) => fetch(`${server.url}/api/v1/account/sign-ins/${id}`, { method: 'DELETE', headers });
const signOutEverywhere = (headers: Record<string, string>) =>
  fetch(`${server.url}/api/v1/account/sign-out-everywhere`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } });
const deleteAccount = (headers: Record<string, string>, body: unknown) =>
  fetch(`${server.url}/api/v1/account`, { method: 'DELETE', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** Whether an access token still opens the API. */
const accessWorks = async (access: string) =>
  (await fetch(`${server.url}/api/v1/auth/me`, { headers: { cookie: `${ACCESS_COOKIE}=${access}` } })).status === 200;
/** Whether a refresh token still buys a new pair. */
const refreshWorks = async (refresh: string) =>
  (await fetch(`${server.url}/api/v1/auth/refresh`, { method: 'POST', headers: { cookie: `${REFRESH_COOKIE}=${refresh}`, origin: server.config.publicUrl } }))
    .status === 200;
const cleared = (response: Response) =>
  [ACCESS_COOKIE, REFRESH_COOKIE].every((name) => response.headers.getSetCookie().some((line) => line.startsWith(`${name}=;`)));

async function sessionIds(headers: Record<string, string>): Promise<string[]> {
  const body = (await (await listSignIns(headers)).json()) as SignInList;
  return body.signIns.map((s) => s.id);
}

describe('GET /api/v1/account/sign-ins', () => {
  it("lists the user's live sign-ins with a device summary, marks the current one, and shows no one else's", async () => {
    const userId = await person('lister@example.test');
    const laptop = await device(userId, CHROME_WINDOWS);
    const phone = await device(userId, FIREFOX_LINUX);
    const gone = await device(userId, FIREFOX_LINUX);
    await fetch(`${server.url}/api/v1/auth/logout`, { method: 'POST', headers: gone.headers });
    const stranger = await userSession(server, 'Stranger Lister');

    const response = await listSignIns(laptop.headers);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).not.toContain('Mozilla'); // a summary, never the raw header
    const { signIns } = JSON.parse(text) as SignInList;
    expect(signIns).toHaveLength(2);
    const current = signIns.find((s) => s.current);
    expect(current).toMatchObject({ browser: 'Chrome 130', os: expect.stringMatching(/^Windows/), device: 'Desktop' });
    expect(signIns.find((s) => !s.current)).toMatchObject({ browser: 'Firefox 132', os: 'Linux', current: false });
    for (const s of signIns) {
      expect(s.signedInAt).toBeGreaterThan(Date.now() - 60_000);
      expect(s.lastUsedAt).toBeGreaterThanOrEqual(s.signedInAt);
    }
    // From the other device, that one is current.
    const fromPhone = (await (await listSignIns(phone.headers)).json()) as SignInList;
    expect(fromPhone.signIns.filter((s) => s.current).map((s) => s.id)).toEqual(signIns.filter((s) => !s.current).map((s) => s.id));
    expect((await sessionIds(stranger.headers)).some((id) => signIns.some((s) => s.id === id))).toBe(false);
  });

  it('records when a device last refreshed, and caps the stored User-Agent', async () => {
    const userId = await person('refresher@example.test');
    const laptop = await device(userId, `${CHROME_WINDOWS} ${'x'.repeat(5000)}`);
    const [row] = await server.db.selectFrom('sign_ins').selectAll().where('user_id', '=', userId).execute();
    expect(row.user_agent?.length).toBe(512);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await refreshWorks(laptop.refresh)).toBe(true);
    const after = await server.db.selectFrom('sign_ins').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(after.last_used_at).toBeGreaterThan(row.last_used_at);
    expect(after.expires_at).toBeGreaterThan(row.expires_at);
  });

  it('housekeeping deletes sign-ins that can no longer refresh, and keeps live ones', async () => {
    const userId = await person('housekept@example.test');
    await device(userId, CHROME_WINDOWS);
    await device(userId, FIREFOX_LINUX);
    const [stale] = await server.db.selectFrom('sign_ins').select('family_id').where('user_id', '=', userId).execute();
    await server.db
      .updateTable('sign_ins')
      .set({ expires_at: Date.now() - 1 })
      .where('family_id', '=', stale.family_id)
      .execute();
    await housekeeping(server.db);
    const left = await server.db.selectFrom('sign_ins').select('family_id').where('user_id', '=', userId).execute();
    expect(left).toHaveLength(1);
    expect(left[0].family_id).not.toBe(stale.family_id);
  });

  it('answers 401 without a session', async () => {
    expect((await listSignIns({})).status).toBe(401);
  });
});

describe('DELETE /api/v1/account/sign-ins/{id}', () => {
  it("signs one other device out at once (access and refresh), keeps the caller's, and refuses another user's sign-in with 404", async () => {
    const userId = await person('one-out@example.test');
    const laptop = await device(userId, CHROME_WINDOWS);
    const phone = await device(userId, FIREFOX_LINUX);
    const other = await userSession(server, 'Other Device Owner');
    const [otherId] = await sessionIds(other.headers);
    const { signIns } = (await (await listSignIns(laptop.headers)).json()) as SignInList;
    const phoneSignIn = signIns.find((s) => !s.current);
    expect(phoneSignIn).toBeDefined();

    // Another user's sign-in, an unknown id, a foreign origin: refused, nothing revoked.
    const foreign = await signOut(otherId, laptop.headers);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: SIGN_IN_NOT_FOUND });
    expect((await signOut('no-such-sign-in', laptop.headers)).status).toBe(404);
    expect((await signOut(phoneSignIn!.id, { ...laptop.headers, origin: 'https://evil.example' })).status).toBe(403);
    expect((await signOut(phoneSignIn!.id, {})).status).toBe(401);
    expect(await accessWorks(other.cookie.split(';')[0].split('=')[1])).toBe(true);
    expect(await accessWorks(phone.access)).toBe(true);

    const response = await signOut(phoneSignIn!.id, laptop.headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(cleared(response)).toBe(false);
    expect(await accessWorks(phone.access)).toBe(false);
    expect(await refreshWorks(phone.refresh)).toBe(false);
    expect(await accessWorks(laptop.access)).toBe(true);
    expect(await sessionIds(laptop.headers)).toHaveLength(1);
  });

  it('signing out the current device clears its cookies', async () => {
    const userId = await person('self-out@example.test');
    const laptop = await device(userId, CHROME_WINDOWS);
    const [id] = await sessionIds(laptop.headers);
    const response = await signOut(id, laptop.headers);
    expect(response.status).toBe(200);
    expect(cleared(response)).toBe(true);
    expect(await accessWorks(laptop.access)).toBe(false);
  });
});

describe('POST /api/v1/account/sign-out-everywhere', () => {
  it("revokes every device of the user, the caller's too, and no one else's", async () => {
    const userId = await person('everywhere@example.test');
    const devices = [await device(userId, CHROME_WINDOWS), await device(userId, FIREFOX_LINUX), await device(userId)];
    const other = await userSession(server, 'Everywhere Bystander');

    expect((await signOutEverywhere({ ...devices[0].headers, origin: 'https://evil.example' })).status).toBe(403);
    expect(await accessWorks(devices[1].access)).toBe(true);

    const response = await signOutEverywhere(devices[0].headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(cleared(response)).toBe(true);
    for (const d of devices) {
      expect(await accessWorks(d.access)).toBe(false);
      expect(await refreshWorks(d.refresh)).toBe(false);
    }
    expect(await server.db.selectFrom('sign_ins').select('family_id').where('user_id', '=', userId).execute()).toEqual([]);
    expect((await listSignIns(other.headers)).status).toBe(200);
    expect(await sessionIds(other.headers)).toHaveLength(1);
    expect((await signOutEverywhere({})).status).toBe(401);
  });
});

/** Everything a user owns, counted table by table. */
async function owned(userId: string) {
  const db = server.db;
  const campaigns = db.selectFrom('campaigns').select('id').where('owner_id', '=', userId);
  const count = async (query: Promise<unknown[]>) => (await query).length;
  return {
    users: await count(db.selectFrom('users').select('id').where('id', '=', userId).execute()),
    campaigns: await count(db.selectFrom('campaigns').select('id').where('owner_id', '=', userId).execute()),
    sessions: await count(db.selectFrom('sessions').select('id').where('campaign_id', 'in', campaigns).execute()),
    chunks: await count(db.selectFrom('chunks').select('seq').where('campaign_id', 'in', campaigns).execute()),
    shares: await count(db.selectFrom('share_links').select('token_hash').where('campaign_id', 'in', campaigns).execute()),
    refreshTokens: await count(db.selectFrom('refresh_tokens').select('id').where('user_id', '=', userId).execute()),
    signIns: await count(db.selectFrom('sign_ins').select('family_id').where('user_id', '=', userId).execute()),
    erasures: await count(db.selectFrom('erasures').select('id').where('campaign_id', 'in', campaigns).execute()),
  };
}

/** A user with a campaign, a recorded session of two chunks and a share link to it, and a person's erasure recorded. */
async function seed(headers: Record<string, string>, name: string) {
  const campaign = await createCampaign(server, headers, name);
  await insertSession(server.db, { campaign_id: campaign.id, id: 'rec-erased', started_at: Date.now() - 1000, user_id: 'someone@example.test' });
  const erasure = await fetch(`${server.url}/api/v1/people/${campaign.id}/someone%40example.test`, { method: 'DELETE', headers });
  expect(erasure.status).toBe(200);
  await insertSession(server.db, { campaign_id: campaign.id, id: 'rec-1', started_at: Date.now() - 1000, last_activity_at: Date.now() });
  for (const seq of [0, 1])
    await appendChunk(server.db, { campaignId: campaign.id, sessionId: 'rec-1', seq, events: [{ type: 3, data: {}, timestamp: 1000 + seq }] });
  await createShare(server.db, { campaignId: campaign.id, sessionId: 'rec-1', expiresIn: '24h', includeDetails: false });
  return campaign.id;
}

const everything = { users: 1, campaigns: 1, sessions: 1, chunks: 2, shares: 1, refreshTokens: 2, signIns: 2, erasures: 1 };

describe('DELETE /api/v1/account', () => {
  it('refuses a wrong or missing confirmation with a reason and deletes nothing', async () => {
    const owner = await userSession(server, 'Careful Owner');
    await device(owner.userId);
    await seed(owner.headers, 'Careful');
    const wrong = await deleteAccount(owner.headers, { confirm: 'someone.else@example.test' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: WRONG_CONFIRMATION });
    expect((await deleteAccount(owner.headers, {})).status).toBe(400);
    expect((await deleteAccount(owner.headers, { confirm: 'careful.owner@example.test', extra: 1 })).status).toBe(400);
    expect((await deleteAccount({ ...owner.headers, origin: 'https://evil.example' }, { confirm: 'careful.owner@example.test' })).status).toBe(403);
    expect((await deleteAccount({}, { confirm: 'careful.owner@example.test' })).status).toBe(401);
    expect(await owned(owner.userId)).toEqual(everything);
  });

  it("deletes the user and every row of theirs in one go, signs them out, and leaves another user's data alone", async () => {
    const owner = await userSession(server, 'Leaving Owner');
    const laptop = await device(owner.userId, FIREFOX_LINUX);
    const leaving = await seed(owner.headers, 'Leaving');
    const other = await userSession(server, 'Staying Owner');
    await device(other.userId);
    await seed(other.headers, 'Staying');
    expect(await owned(owner.userId)).toEqual(everything);
    // Ingest has read (and keeps) the campaign: after the deletion its batches are refused all the same.
    const visit = () => postBatch(server, leaving, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() }, { origin: 'https://example.com' });
    expect((await visit()).status).toBe(200);

    // The typed email may differ in case and surrounding spaces.
    const response = await deleteAccount(owner.headers, { confirm: '  Leaving.Owner@Example.test ' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(cleared(response)).toBe(true);
    expect(await owned(owner.userId)).toEqual({ users: 0, campaigns: 0, sessions: 0, chunks: 0, shares: 0, refreshTokens: 0, signIns: 0, erasures: 0 });
    // The campaign is gone, so its rows are looked up by its id: its erasure records went with it.
    expect(await server.db.selectFrom('erasures').select('id').where('campaign_id', '=', leaving).execute()).toEqual([]);
    expect((await visit()).status).toBe(404);
    expect(await accessWorks(laptop.access)).toBe(false);
    expect((await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: owner.headers })).status).toBe(401);
    expect(await owned(other.userId)).toEqual(everything);
    expect((await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: other.headers })).status).toBe(200);
  });

  it("deletes the built-in provider's account too: the email can sign up again with a new password", async () => {
    const person = { name: 'Local Leaver', email: 'local.leaver@example.test' };
    const signedIn = await signIn(server, person);
    const subject = (await server.db.selectFrom('users').select('subject').where('id', '=', signedIn.user.id).executeTakeFirstOrThrow()).subject;
    const accountId = subject.slice(subject.lastIndexOf('|') + 1);
    expect(await server.db.selectFrom('local_accounts').select('email').where('email', '=', person.email).execute()).toHaveLength(1);
    const providerRows = async () =>
      (await server.db.selectFrom('oidc_models').select('payload').execute()).filter(
        (row) => (JSON.parse(row.payload) as { accountId?: string }).accountId === accountId,
      );
    expect((await providerRows()).length).toBeGreaterThan(0);

    const response = await deleteAccount(signedIn.headers, { confirm: person.email });
    expect(response.status).toBe(200);
    expect(await server.db.selectFrom('local_accounts').select('email').where('email', '=', person.email).execute()).toEqual([]);
    expect(await providerRows()).toEqual([]);
    expect(await owned(signedIn.user.id)).toMatchObject({ users: 0, refreshTokens: 0, signIns: 0 });

    // The old password is gone with the account: signing in again makes a new, empty account.
    const again = await signIn(server, { ...person, password: 'a different password' });
    expect(again.user.id).not.toBe(signedIn.user.id);
    const campaigns = (await (await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: again.headers })).json()) as { data: unknown[] };
    expect(campaigns.data).toEqual([]);
  });

  it('confirms an account without an email by its name', async () => {
    const userId = await upsertUser(server.db, { subject: 'test|no-email', name: 'Nameless Nora', email: null, picture: null });
    const laptop = await device(userId);
    expect((await deleteAccount(laptop.headers, { confirm: '' })).status).toBe(400);
    expect((await deleteAccount(laptop.headers, { confirm: 'Nameless Nora' })).status).toBe(200);
    expect((await owned(userId)).users).toBe(0);
  });

  it('limits deletion attempts per user', async () => {
    const owner = await userSession(server, 'Hasty Owner');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await deleteAccount(owner.headers, { confirm: 'nope' })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await owned(owner.userId)).users).toBe(1);
  });
});
