import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { createCampaign } from './ingest-support.js';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../common/api-keys.js';
import { KEY_NOT_TAKEN } from '../../server/api-keys/authenticate.js';

// API keys (issue 38) over HTTP on the test's database: made, used with Bearer, revoked or expired
// at once, kept as hashes, limited per key, acting with the maker's current role in the key's
// workspace only, and audited. The scope of each route has its own walk (api-keys-scopes.test.ts).

type Session = Awaited<ReturnType<typeof userSession>>;

/** Requests a key may make a minute on this server: small, so the limit is reached by the test. */
const RATE = 10;
let server: TestServer;
let owner: Session;
let personal: string;

async function call(who: Session | string, method: string, path: string, body?: unknown) {
  const auth = typeof who === 'string' ? { authorization: `Bearer ${who}` } : who.headers;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  const json = (type.startsWith('application/json') ? await res.json() : {}) as { error?: string; data?: unknown };
  return { status: res.status, headers: res.headers, error: json.error, data: json.data as Record<string, unknown> & Record<string, unknown>[] };
}

/** A new key of the caller's (the personal workspace's without `workspace_id`). */
async function keyOf(who: Session, scopes: readonly ApiKeyScope[], more: { workspace_id?: string; expires_at?: number } = {}) {
  const made = await call(who, 'POST', '/api/v1/api-keys', { name: `Key ${crypto.randomUUID().slice(0, 8)}`, scopes, ...more });
  expect(made.status, made.error).toBe(201);
  return made.data as unknown as { id: string; key: string; prefix: string };
}

/** A user who joins the workspace with the role through an invite, as a client would. */
async function joined(workspaceId: string, name: string, role: 'admin' | 'member' | 'viewer'): Promise<Session> {
  const user = await userSession(server, name);
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`;
  const invite = await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites`, { email, role });
  expect((await call(user, 'POST', `/api/v1/invites/${String(invite.data.url).split('/invite/')[1]}/accept`, {})).status).toBe(200);
  return user;
}

beforeAll(async () => {
  server = await startServer({ API_KEY_RATE_PER_MIN: String(RATE) });
  owner = await userSession(server, 'Key Owner');
  personal = ((await call(owner, 'GET', '/api/v1/workspaces')).data as unknown as { id: string; personal: boolean }[]).find((w) => w.personal)?.id as string;
});
afterAll(async () => server?.close());

describe('an API key', () => {
  it('is shown once, starts with td_, is listed by its prefix and is stored as a hash only', async () => {
    const made = await keyOf(owner, ['sessions:read']);
    expect(made.key).toMatch(/^td_[\w-]{43}$/);
    expect(made.key.startsWith(made.prefix)).toBe(true);
    expect((await call(made.key, 'GET', '/api/v1/campaign/getAll')).status).toBe(200);
    const listed = (await call(owner, 'GET', '/api/v1/api-keys')).data.find((k) => k.id === made.id);
    expect(listed).toMatchObject({ prefix: made.prefix, scopes: ['sessions:read'], expires_at: null });
    expect(JSON.stringify(listed)).not.toContain(made.key);
    // The database holds its SHA-256, and no row of the keys or the audit log holds the key.
    const rows = await server.db.selectFrom('api_keys').selectAll().execute();
    const audit = await server.db.selectFrom('audit_log').selectAll().execute();
    expect(JSON.stringify([rows, audit])).not.toContain(made.key.slice(made.prefix.length));
    expect(rows.find((row) => row.id === made.id)?.hash).toBe(crypto.createHash('sha256').update(made.key).digest('base64url'));
  });

  it('is refused at once when revoked or expired, and when unknown', async () => {
    const revoked = await keyOf(owner, ['sessions:read']);
    expect((await call(revoked.key, 'GET', '/api/v1/campaign/getAll')).status).toBe(200);
    expect((await call(owner, 'DELETE', `/api/v1/api-keys/${revoked.id}`)).status).toBe(200);
    expect(await call(revoked.key, 'GET', '/api/v1/campaign/getAll')).toMatchObject({ status: 401, error: 'This API key was revoked' });
    expect((await call(owner, 'GET', '/api/v1/api-keys')).data.some((k) => k.id === revoked.id)).toBe(false);
    expect((await call(owner, 'DELETE', `/api/v1/api-keys/${revoked.id}`)).status).toBe(404);

    const expiring = await keyOf(owner, ['sessions:read'], { expires_at: Date.now() + 1500 });
    expect((await call(expiring.key, 'GET', '/api/v1/campaign/getAll')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await call(expiring.key, 'GET', '/api/v1/campaign/getAll')).toMatchObject({ status: 401, error: 'This API key has expired' });

    const unknown = `td_${crypto.randomBytes(32).toString('base64url')}`;
    expect(await call(unknown, 'GET', '/api/v1/campaign/getAll')).toMatchObject({ status: 401, error: 'Unknown API key' });
    // A past expiry, an unknown scope and an empty name are refused when the key is made.
    expect((await call(owner, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['sessions:read'], expires_at: 1 })).status).toBe(400);
    expect((await call(owner, 'POST', '/api/v1/api-keys', { name: 'x', scopes: ['everything'] })).status).toBe(400);
    expect((await call(owner, 'POST', '/api/v1/api-keys', { name: '  ', scopes: ['sessions:read'] })).status).toBe(400);
  });

  it('never reaches sign-in, the account, workspaces or key management', async () => {
    const all = await keyOf(owner, API_KEY_SCOPES);
    const refused = [
      ['GET', '/api/v1/auth/me'],
      ['POST', '/api/v1/auth/refresh'],
      ['GET', '/api/v1/auth/google/login'],
      ['GET', '/api/v1/account/sign-ins'],
      ['DELETE', '/api/v1/account'],
      ['POST', '/api/v1/workspaces'],
      ['GET', `/api/v1/workspaces/${personal}/members`],
      ['GET', `/api/v1/workspaces/${personal}/audit`],
      ['GET', '/api/v1/api-keys'],
      ['POST', '/api/v1/api-keys'],
      ['DELETE', `/api/v1/api-keys/${all.id}`],
    ];
    for (const [method, path] of refused)
      expect(await call(all.key, method, path, method === 'GET' ? undefined : {}), path).toMatchObject({ status: 403, error: KEY_NOT_TAKEN });
    // Still there: the refusals came before anything was done.
    expect((await call(owner, 'GET', '/api/v1/api-keys')).data.some((k) => k.id === all.id)).toBe(true);
  });

  it('is limited per key, with RateLimit headers and 429 with Retry-After', async () => {
    const { key } = await keyOf(owner, ['sessions:read']);
    const other = await keyOf(owner, ['sessions:read']);
    for (let i = 1; i <= RATE; i++) {
      const answer = await call(key, 'GET', '/api/v1/campaign/getAll');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe(String(RATE));
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(RATE - i));
      expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const over = await call(key, 'GET', '/api/v1/campaign/getAll');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    // Another key of the same account and address counts on its own.
    expect((await call(other.key, 'GET', '/api/v1/campaign/getAll')).status).toBe(200);
  });

  it('notes its last use at most once a minute', async () => {
    const made = await keyOf(owner, ['sessions:read']);
    const lastUsed = async () =>
      (await server.db.selectFrom('api_keys').select('last_used_at').where('id', '=', made.id).executeTakeFirstOrThrow()).last_used_at;
    expect(await lastUsed()).toBeNull();
    await call(made.key, 'GET', '/api/v1/campaign/getAll');
    const first = Number(await lastUsed());
    expect(first).toBeGreaterThan(Date.now() - 10_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await call(made.key, 'GET', '/api/v1/campaign/getAll');
    expect(Number(await lastUsed())).toBe(first);
  });
});

describe("a key's reach", () => {
  it("acts with its maker's role now, in its own workspace only, and is audited as its maker with the key named", async () => {
    const team = String((await call(owner, 'POST', '/api/v1/workspaces', { name: 'Key team' })).data.id);
    const admin = await joined(team, 'Key Admin', 'admin');
    // A campaign of the maker's own personal workspace, which the maker reaches with a cookie but the team's key must not.
    const outside = await createCampaign(server, admin.headers, 'Personal shop', 'personal.example.com');
    const adminsOwn = ((await call(admin, 'GET', '/api/v1/workspaces')).data as unknown as { id: string; personal: boolean }[]).find((w) => w.personal)?.id;
    const made = await keyOf(admin, ['campaigns:write', 'sessions:read'], { workspace_id: team });
    const body = { name: 'Made by key', domains: 'key.example.com', start_date_time: 1, end_date_time: 2e12 };
    const created = await call(made.key, 'POST', '/api/v1/campaign/create', body);
    expect(created.status, created.error).toBe(201);
    expect(created.data.workspace_id).toBe(team);
    // Its maker's other workspace is unknown to the key, and so are its campaigns.
    expect(await call(made.key, 'POST', '/api/v1/campaign/create', { ...body, workspace_id: adminsOwn })).toMatchObject({
      status: 404,
      error: 'Workspace not found',
    });
    expect((await call(made.key, 'GET', `/api/v1/streaming/sessions/${outside.id}`)).status).toBe(404);
    expect(await call(made.key, 'DELETE', `/api/v1/campaign/delete/${outside.id}`)).toMatchObject({ status: 404, error: 'Campaign not found' });
    const listed = (await call(made.key, 'GET', '/api/v1/campaign/getAll')).data.map((c) => c.workspace_id);
    expect(new Set(listed)).toEqual(new Set([team]));

    const entries = (await call(owner, 'GET', `/api/v1/workspaces/${team}/audit`)).data;
    expect(entries.find((e) => e.action === 'campaign.created')).toMatchObject({
      actor_email: 'key.admin@example.test',
      api_key: { id: made.id, prefix: made.prefix },
    });
    expect(entries.find((e) => e.action === 'api_key.created')).toMatchObject({ target: `api_key:${made.prefix}`, actor_email: 'key.admin@example.test' });
    expect(entries.find((e) => e.action === 'api_key.created')?.api_key).toBeUndefined();

    // Demoted to viewer: what the role lost, the key lost; what it kept, the key keeps.
    const adminId = admin.userId;
    expect((await call(owner, 'PATCH', `/api/v1/workspaces/${team}/members/${adminId}`, { role: 'viewer' })).status).toBe(200);
    expect(await call(made.key, 'POST', '/api/v1/campaign/create', body)).toMatchObject({ status: 403, error: 'Missing permission: campaigns.manage' });
    expect((await call(made.key, 'GET', '/api/v1/campaign/getAll')).status).toBe(200);
    // A viewer cannot manage keys: the key's maker can no longer list or revoke it, the owner can.
    expect((await call(admin, 'GET', `/api/v1/api-keys?workspace_id=${team}`)).status).toBe(403);
    // Removed: the key stops working at all.
    expect((await call(owner, 'DELETE', `/api/v1/workspaces/${team}/members/${adminId}`)).status).toBe(200);
    expect(await call(made.key, 'GET', '/api/v1/campaign/getAll')).toMatchObject({
      status: 401,
      error: "This API key's maker is no longer a member of its workspace",
    });
    expect((await call(owner, 'DELETE', `/api/v1/api-keys/${made.id}`)).status).toBe(200);
    const revoked = (await call(owner, 'GET', `/api/v1/workspaces/${team}/audit?action=api_key.revoked`)).data;
    expect(revoked).toEqual([expect.objectContaining({ actor_email: 'key.owner@example.test', target: `api_key:${made.prefix}` })]);
  });

  it('goes with the account that made it', async () => {
    const leaving = await userSession(server, 'Key Leaver');
    const made = await keyOf(leaving, ['sessions:read']);
    expect((await call(made.key, 'GET', '/api/v1/campaign/getAll')).status).toBe(200);
    expect((await call(leaving, 'DELETE', '/api/v1/account', { confirm: 'key.leaver@example.test' })).status).toBe(200);
    expect(await call(made.key, 'GET', '/api/v1/campaign/getAll')).toMatchObject({ status: 401, error: 'Unknown API key' });
    expect(await server.db.selectFrom('api_keys').select('id').where('id', '=', made.id).executeTakeFirst()).toBeUndefined();
  });

  it('is made only by those with api_keys.manage, and at most 50 a workspace', async () => {
    const team = String((await call(owner, 'POST', '/api/v1/workspaces', { name: 'Capped' })).data.id);
    const member = await joined(team, 'Key Member', 'member');
    expect(await call(member, 'POST', '/api/v1/api-keys', { name: 'm', scopes: ['sessions:read'], workspace_id: team })).toMatchObject({
      status: 403,
      error: 'Missing permission: api_keys.manage',
    });
    const stranger = await userSession(server, 'Key Stranger');
    expect((await call(stranger, 'GET', `/api/v1/api-keys?workspace_id=${team}`)).status).toBe(404);
    const now = Date.now();
    await server.db
      .insertInto('api_keys')
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          id: crypto.randomUUID(),
          workspace_id: team,
          created_by: owner.userId,
          name: `k${i}`,
          prefix: 'td_xxxxxxxx',
          hash: crypto.randomBytes(32).toString('base64url'),
          scopes: 'sessions:read',
          expires_at: null,
          last_used_at: null,
          revoked_at: null,
          created_at: now,
        })),
      )
      .execute();
    expect((await call(owner, 'POST', '/api/v1/api-keys', { name: 'one more', scopes: ['sessions:read'], workspace_id: team })).status).toBe(409);
  });
});
