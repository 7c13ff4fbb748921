import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import { hashShareToken } from '../../server/shares/repository.js';
import type { Campaign, ReplayEvent } from '../../common/api-types.js';
import type { CreatedShare, SharedReplay, ShareList } from '../../common/api/shares.js';
import { createCampaign } from './ingest-support.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;

const SESSION = 'shared-session-1';
const event = (type: number, timestamp: number, data: unknown = {}): ReplayEvent => ({ type, data, timestamp });

function share(body: unknown, headers: Record<string, string> = owner.headers, campaignId = campaign.id, sessionId = SESSION) {
  return fetch(`${server.url}/api/v1/replay/share/${campaignId}/${sessionId}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function created(body: unknown): Promise<CreatedShare> {
  const response = await share(body);
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedShare;
}

const list = async (headers: Record<string, string> = owner.headers) => fetch(`${server.url}/api/v1/replay/share/${campaign.id}/${SESSION}`, { headers });
const revoke = (tokenOrId: string, headers: Record<string, string> = owner.headers) =>
  fetch(`${server.url}/api/v1/replay/share/${tokenOrId}`, { method: 'DELETE', headers });
/** The public call, with no cookie at all. */
const open = (token: string) => fetch(`${server.url}/api/v1/shared/${token}`);

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Share Owner');
  campaign = await createCampaign(server, owner.headers, 'Shares');
  await insertSession(server.db, {
    campaign_id: campaign.id,
    id: SESSION,
    started_at: Date.now() - 60_000,
    last_activity_at: Date.now(),
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
    remote_ip: '198.51.100.7',
    language: 'en-GB',
  });
  await appendChunk(server.db, {
    campaignId: campaign.id,
    sessionId: SESSION,
    seq: 0,
    events: [event(4, 1000, { href: 'https://example.com/' }), event(2, 1001)],
  });
  await appendChunk(server.db, { campaignId: campaign.id, sessionId: SESSION, seq: 1, events: [event(3, 1200)] });
});
afterAll(async () => server?.close());

describe('share links', () => {
  it('creates a link whose token is random, stored only hashed, and opens the replay without cookies and without details', async () => {
    const before = Date.now();
    const link = await created({ expiresIn: '24h', includeDetails: false });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`${server.config.publicUrl}/shared/${link.token}`);
    expect(link.expiresAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(link.expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    const stored = await server.db.selectFrom('share_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(link.token);
    expect(stored.map((row) => row.token_hash)).toContain(hashShareToken(link.token));
    const other = await created({ expiresIn: '24h', includeDetails: false });
    expect(other.token).not.toBe(link.token);

    const response = await open(link.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    const text = await response.text();
    expect(text).not.toContain('198.51.100.7');
    expect(text).not.toContain(campaign.id);
    expect(text).not.toContain('Shares');
    const body = JSON.parse(text) as SharedReplay;
    expect(body.details).toBeNull();
    expect(body.expiresAt).toBe(link.expiresAt);
    expect(body.complete).toBe(false); // the session was active a moment ago
    expect(body.events.map((e) => e.timestamp)).toEqual([1000, 1001, 1200]);
  });

  it('includes the session details only when asked', async () => {
    const link = await created({ expiresIn: '1h', includeDetails: true });
    const body = (await (await open(link.token)).json()) as SharedReplay;
    expect(body.details).toMatchObject({ sessionId: SESSION, remoteIpAddress: '198.51.100.7', language: 'en-GB' });
    expect(link.expiresAt - Date.now()).toBeLessThanOrEqual(3_600_000);
  });

  it('carries page addresses without query string or fragment when without details, also for recordings stored with them', async () => {
    const id = 'shared-old-session';
    await insertSession(server.db, { campaign_id: campaign.id, id, started_at: Date.now() - 60_000, last_activity_at: Date.now() });
    // As ingest stored page addresses before it dropped their queries (and as sorted chunks keep them).
    const meta = (t: number, href: string) => event(4, t, { href, width: 800, height: 600 });
    await appendChunk(server.db, {
      campaignId: campaign.id,
      sessionId: id,
      seq: 0,
      events: [meta(1000, 'https://example.com/reset?token=s3cret#mail=ada@example.com'), event(2, 1001)],
    });
    await appendChunk(server.db, {
      campaignId: campaign.id,
      sessionId: id,
      seq: 1,
      events: [event(3, 1100), meta(1200, 'https://example.com/a"b?x=1'), meta(1300, 'https://example.com/plain')],
    });
    const hrefs = async (includeDetails: boolean) => {
      const response = await share({ expiresIn: '1h', includeDetails }, owner.headers, campaign.id, id);
      const { token } = (await response.json()) as CreatedShare;
      const body = (await (await open(token)).json()) as SharedReplay;
      return body.events.filter((e) => e.type === 4).map((e) => (e.data as { href: string }).href);
    };
    expect(await hrefs(false)).toEqual(['https://example.com/reset', 'https://example.com/a"b', 'https://example.com/plain']);
    expect(await hrefs(true)).toEqual([
      'https://example.com/reset?token=s3cret#mail=ada@example.com',
      'https://example.com/a"b?x=1',
      'https://example.com/plain',
    ]);
  });

  it('says the shared replay is complete once its session has been idle 30 minutes', async () => {
    const idle = 'shared-idle-1';
    await insertSession(server.db, { campaign_id: campaign.id, id: idle, started_at: Date.now() - 40 * 60_000, last_activity_at: Date.now() - 31 * 60_000 });
    await appendChunk(server.db, { campaignId: campaign.id, sessionId: idle, seq: 0, events: [event(2, 1000)] });
    const response = await share({ expiresIn: '1h' }, owner.headers, campaign.id, idle);
    const { token } = (await response.json()) as CreatedShare;
    const body = (await (await open(token)).json()) as SharedReplay;
    expect(body.complete).toBe(true);
  });

  it('lists the session’s links for its owner, never their tokens', async () => {
    const link = await created({ expiresIn: '7d', includeDetails: false });
    const response = await list();
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(link.token);
    const { links } = JSON.parse(text) as ShareList;
    expect(links[0]).toEqual({
      id: hashShareToken(link.token),
      createdAt: expect.any(Number),
      expiresAt: link.expiresAt,
      includeDetails: false,
      revoked: false,
    });
  });

  it('revokes a link by its token or its listed id: the public call then answers 404', async () => {
    const byToken = await created({ expiresIn: '1h' });
    expect((await open(byToken.token)).status).toBe(200);
    const revoked = await revoke(byToken.token);
    expect([revoked.status, await revoked.json()]).toEqual([200, { ok: true }]);
    const gone = await open(byToken.token);
    expect([gone.status, await gone.json()]).toEqual([404, { error: 'This link no longer works' }]);

    const byId = await created({ expiresIn: '1h' });
    expect((await revoke(hashShareToken(byId.token))).status).toBe(200);
    expect((await open(byId.token)).status).toBe(404);
    const { links } = (await (await list()).json()) as ShareList;
    expect(links.find((l) => l.id === hashShareToken(byId.token))?.revoked).toBe(true);
  });

  it('answers 404 once a link has expired', async () => {
    const link = await created({ expiresIn: '1h' });
    await server.db
      .updateTable('share_links')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hashShareToken(link.token))
      .execute();
    const gone = await open(link.token);
    expect([gone.status, await gone.json()]).toEqual([404, { error: 'This link no longer works' }]);
  });

  it('answers 404 for an unknown or malformed token', async () => {
    expect((await open('A'.repeat(43))).status).toBe(404);
    expect((await open('not-a-token')).status).toBe(404);
  });

  it('validates the body: expiresIn one of 1h, 24h, 7d; no unknown fields', async () => {
    expect((await share({ expiresIn: '2d' })).status).toBe(400);
    expect((await share({})).status).toBe(400);
    expect((await share({ expiresIn: '1h', includeDetails: 'yes' })).status).toBe(400);
    expect((await share({ expiresIn: '1h', extra: 1 })).status).toBe(400);
  });

  it('lets no one else create, list or revoke a link, and needs a signed-in owner', async () => {
    const stranger = await userSession(server, 'Share Stranger');
    const theirs = await share({ expiresIn: '1h' }, stranger.headers);
    expect(theirs.status).toBe(404);
    expect((await list(stranger.headers)).status).toBe(404);
    const link = await created({ expiresIn: '1h' });
    const notTheirs = await revoke(link.token, stranger.headers);
    expect([notTheirs.status, await notTheirs.json()]).toEqual([404, { error: 'Share link not found' }]);
    expect((await open(link.token)).status).toBe(200);
    expect((await share({ expiresIn: '1h' }, {})).status).toBe(401);
    expect((await list({})).status).toBe(401);
    expect((await fetch(`${server.url}/api/v1/replay/share/${link.token}`, { method: 'DELETE', headers: { origin: server.config.publicUrl } })).status).toBe(
      401,
    );
    const unknownSession = await share({ expiresIn: '1h' }, owner.headers, campaign.id, 'no-such-session');
    expect(unknownSession.status).toBe(404);
  });

  it('goes with its session: a deleted session’s link no longer works', async () => {
    await insertSession(server.db, { campaign_id: campaign.id, id: 'shared-session-gone', started_at: Date.now() });
    const response = await share({ expiresIn: '1h' }, owner.headers, campaign.id, 'shared-session-gone');
    const link = (await response.json()) as CreatedShare;
    expect((await open(link.token)).status).toBe(200);
    const deleted = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/shared-session-gone`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    expect((await open(link.token)).status).toBe(404);
    expect(await server.db.selectFrom('share_links').select('token_hash').where('session_id', '=', 'shared-session-gone').execute()).toEqual([]);
  });

  it('serves the shared page under its own strict policy, never indexed, with no Referer', async () => {
    const link = await created({ expiresIn: '1h' });
    const page = await fetch(link.url.replace(server.config.publicUrl, server.url), { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("form-action 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  // Last: it spends this address's opens for the minute.
  it('limits the opens one address makes in a minute: 429 with Retry-After', async () => {
    const link = await created({ expiresIn: '1h' });
    let answer = await open(link.token);
    for (let tries = 0; answer.status === 200 && tries < 100; tries++) {
      await answer.arrayBuffer(); // read, so no connection is left waiting on its body
      answer = await open(link.token);
    }
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
