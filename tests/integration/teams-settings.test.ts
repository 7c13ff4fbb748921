import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { openSse } from '../helpers/sse.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { info, pageEvents, postBatch, sessionId } from './ingest-support.js';
import { housekeeping } from '../../server/cluster/jobs.js';
import { sendMail } from '../../server/teams/mail.js';
import type { Campaign } from '../../common/api-types.js';

// Issue 37's remaining server parts, over HTTP on the test's database: invites e-mailed where
// SMTP_URL is set (to a small SMTP server on loopback), the viewers' download and share switches,
// the caller's permissions in the workspace list, deleting a workspace, the audit log's cursor and
// retention, and what the app reads at sign-in to purge a removed member's saved replays.

type Session = Awaited<ReturnType<typeof userSession>>;

let sink: SmtpSink;
let server: TestServer;
let owner: Session;
let viewer: Session;
let member: Session;
let stranger: Session;
let workspaceId: string;
let campaign: Campaign;
let session: string;

async function call(who: Session, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...who.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: (type.startsWith('application/json') ? await res.json() : await res.text()) as Record<string, unknown> };
}

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`;
const tokenOf = (url: string) => url.split('/invite/')[1];

interface Invite {
  id: string;
  url: string;
  expires_at: number;
  emailed: boolean;
}

async function invite(email: string, role: string): Promise<Invite> {
  const made = await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites`, { email, role });
  expect(made.status).toBe(201);
  return made.body.data as Invite;
}

async function joined(name: string, role: string): Promise<Session> {
  const user = await userSession(server, name);
  const made = await invite(emailOf(name), role);
  expect((await call(user, 'POST', `/api/v1/invites/${tokenOf(made.url)}/accept`)).status).toBe(200);
  return user;
}

interface WorkspaceRow {
  id: string;
  name: string;
  role: string;
  personal: boolean;
  viewers_can_download: boolean;
  viewers_can_share: boolean;
  permissions: string[];
}
const workspacesOf = async (who: Session) => (await call(who, 'GET', '/api/v1/workspaces')).body.data as WorkspaceRow[];

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({
    PUBLIC_URL: 'https://tapedeck.example',
    SMTP_URL: sink.url('relay%40example.test:s3cret%3A1'),
    SMTP_FROM: 'team@tapedeck.example',
  });
  owner = await userSession(server, 'Settings Owner');
  stranger = await userSession(server, 'Settings Stranger');
  workspaceId = ((await call(owner, 'POST', '/api/v1/workspaces', { name: 'Café crew' })).body.data as { id: string }).id;
  const made = await call(owner, 'POST', '/api/v1/campaign/create', {
    name: 'Crew shop',
    domains: 'shop.example.com',
    start_date_time: 1,
    end_date_time: 2e12,
    workspace_id: workspaceId,
  });
  campaign = made.body.data as Campaign;
  session = sessionId();
  expect((await postBatch(server, campaign.id, { sessionId: session, seq: 0, info: info(), events: pageEvents() })).status).toBe(200);
  viewer = await joined('Settings Viewer', 'viewer');
  member = await joined('Settings Member', 'member');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

describe('invites by e-mail', () => {
  it('e-mails the link through SMTP_URL (signed in with its user), from SMTP_FROM, to the invited address only', async () => {
    const before = sink.received.length;
    const made = await invite('New.Person@Example.test', 'member');
    expect(made.emailed).toBe(true);
    expect(sink.received.length).toBe(before + 1);
    const mail = sink.received.at(-1)!;
    expect(mail.auth).toEqual({ user: 'relay@example.test', password: 's3cret:1' });
    expect([mail.from, mail.to]).toEqual(['team@tapedeck.example', ['new.person@example.test']]);
    expect(mail.data).toMatch(/^From: Tapedeck <team@tapedeck\.example>\r\nTo: <new\.person@example\.test>\r\n/);
    // The workspace's name is not ASCII: the subject is encoded, the body sent as base64.
    expect(mail.data).toContain(`Subject: =?utf-8?B?${Buffer.from('Invitation to the workspace "Café crew" on Tapedeck').toString('base64')}?=`);
    const body = Buffer.from(mail.data.split('\r\n\r\n')[1].replace(/\r\n/g, ''), 'base64').toString('utf8');
    expect(body).toContain(made.url);
    expect(body).toContain('Settings Owner invites you to the workspace "Café crew" on Tapedeck, as member.');
    expect(body).toContain('only for new.person@example.test');
  });

  it('e-mails the new link when an invite is sent again', async () => {
    const made = await invite('again@example.test', 'viewer');
    const again = await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites/${made.id}/resend`);
    const resent = again.body.data as Invite;
    expect([again.status, resent.emailed]).toEqual([201, true]);
    const mail = sink.received.at(-1)!;
    expect(mail.to).toEqual(['again@example.test']);
    const body = Buffer.from(mail.data.split('\r\n\r\n')[1].replace(/\r\n/g, ''), 'base64').toString('utf8');
    expect(body).toContain(resent.url);
    expect(body).not.toContain(made.url);
  });

  it('still makes the invite when the send fails, and says it was not e-mailed', async () => {
    sink.refuseRecipients = true;
    try {
      const before = sink.received.length;
      const made = await invite('bounced@example.test', 'viewer');
      expect(made.emailed).toBe(false);
      expect(sink.received.length).toBe(before);
      const pending = (await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/invites`)).body.data as { id: string }[];
      expect(pending.map((p) => p.id)).toContain(made.id);
    } finally {
      sink.refuseRecipients = false;
    }
  });

  it('dot-stuffs the message and refuses an address with a line break', async () => {
    const text = 'first\n.\n..two dots\n.leading dot';
    await sendMail(sink.url(), 'from@example.test', { to: 'to@example.test', subject: 'Dots', text });
    expect(sink.received.at(-1)!.data.split('\r\n\r\n')[1]).toBe(text.replace(/\n/g, '\r\n'));
    await expect(sendMail(sink.url(), 'from@example.test', { to: 'x@example.test>\r\nRCPT TO:<y@example.test', subject: 'x', text: 'x' })).rejects.toThrow(
      /an address SMTP cannot carry/,
    );
    const refused = await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites`, { email: 'a@b.test>\r\nRCPT TO:<c@d.test', role: 'viewer' });
    expect([refused.status, refused.body]).toEqual([400, { error: 'email must be an e-mail address' }]);
  });
});

describe('the SMTP client', () => {
  it('gives up on a server that stays silent or is not there, rather than waiting', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const message = { to: 'to@example.test', subject: 'x', text: 'x' };
    try {
      await expect(sendMail(`smtp://127.0.0.1:${port}`, 'from@example.test', message, 200)).rejects.toThrow(/did not answer within 200 ms/);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
    await expect(sendMail(`smtp://127.0.0.1:${port}`, 'from@example.test', message, 200)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("the viewers' switches", () => {
  const exportPath = () => `/api/v1/replay/export/${campaign.id}/${session}`;
  const share = (who: Session) => call(who, 'POST', `/api/v1/replay/share/${campaign.id}/${session}`, { expiresIn: '1h' });

  it('keep viewers to watching until an admin allows downloads or shares, each audited with before and after', async () => {
    expect((await call(viewer, 'GET', `/api/v1/replay/retrieve/${campaign.id}/${session}`)).status).toBe(200);
    expect(await call(viewer, 'GET', exportPath())).toEqual({ status: 403, body: { error: 'Missing permission: sessions.download' } });
    expect(await share(viewer)).toEqual({ status: 403, body: { error: 'Missing permission: shares.manage' } });
    const mine = (await workspacesOf(viewer)).find((w) => w.id === workspaceId)!;
    expect(mine).toEqual({
      id: workspaceId,
      name: 'Café crew',
      role: 'viewer',
      personal: false,
      viewers_can_download: false,
      viewers_can_share: false,
      permissions: ['campaigns.view', 'sessions.watch', 'members.view'],
    });

    // A member may not flip them; an admin (here the owner) may.
    const refused = await call(member, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { viewers_can_download: true });
    expect(refused).toEqual({ status: 403, body: { error: 'Missing permission: settings.manage' } });
    expect((await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { viewers_can_download: true })).body).toEqual({ ok: true });
    expect((await call(viewer, 'GET', exportPath())).status).toBe(200);
    expect(await share(viewer)).toEqual({ status: 403, body: { error: 'Missing permission: shares.manage' } });
    expect((await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { viewers_can_share: true })).body).toEqual({ ok: true });
    expect((await share(viewer)).status).toBe(201);
    expect((await workspacesOf(viewer)).find((w) => w.id === workspaceId)).toMatchObject({
      viewers_can_download: true,
      viewers_can_share: true,
      permissions: ['campaigns.view', 'sessions.watch', 'sessions.download', 'shares.manage', 'members.view'],
    });
    // A member's rights do not change with them.
    expect((await workspacesOf(member)).find((w) => w.id === workspaceId)?.permissions).toContain('sessions.download');

    const audit = (await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?action=workspace.settings_changed`)).body.data as {
      before: unknown;
      after: unknown;
    }[];
    expect(audit.map((e) => [e.before, e.after])).toEqual([
      [{ viewers_can_share: false }, { viewers_can_share: true }],
      [{ viewers_can_download: false }, { viewers_can_download: true }],
    ]);
    // Off again: the viewer is back to watching. A change to nothing new writes no entry.
    await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { viewers_can_download: false, viewers_can_share: false });
    expect((await call(viewer, 'GET', exportPath())).status).toBe(403);
    const count = async () => ((await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?limit=500`)).body.data as unknown[]).length;
    const entries = await count();
    expect((await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { viewers_can_share: false })).body).toEqual({ ok: true });
    expect(await count()).toBe(entries);
    expect((await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, {})).status).toBe(400);
    expect((await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { viewers_can_share: 'yes' })).status).toBe(400);
  });
});

describe('the audit log, paged', () => {
  it('walks every entry with a cursor, filters kept, and refuses a cursor it did not make', async () => {
    for (const name of ['Crew 1', 'Crew 2', 'Crew 3', 'Café crew']) await call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { name });
    const all = (await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?limit=500`)).body;
    expect(all.next_cursor).toBeNull();
    const walk = async (query: string) => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page = (await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`)).body;
        expect((page.data as unknown[]).length).toBeLessThanOrEqual(2);
        seen.push(...(page.data as unknown[]));
        cursor = page.next_cursor as string | null;
      } while (cursor);
      return seen;
    };
    expect(await walk('')).toEqual(all.data);
    const renamed = await walk('&action=workspace.renamed');
    expect(renamed.map((e) => (e as { after: { name: string } }).after.name)).toEqual(['Café crew', 'Crew 3', 'Crew 2', 'Crew 1']);
    expect(await walk(`&actor=${emailOf('Settings Stranger')}`)).toEqual([]);
    const viewers = (await walk(`&actor=${emailOf('Settings Viewer')}`)) as { action: string; actor_email: string }[];
    expect(viewers.at(-1)?.action).toBe('member.joined');
    expect(new Set(viewers.map((e) => e.actor_email))).toEqual(new Set([emailOf('Settings Viewer')]));
    const bad = await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?cursor=bm90LWEtY3Vyc29y`);
    expect([bad.status, bad.body]).toEqual([400, { error: 'cursor must be the next_cursor of an earlier page' }]);
  });

  it('keeps entries for AUDIT_RETENTION_DAYS (365 by default): housekeeping deletes older ones, and nothing else can', async () => {
    expect(server.config.auditRetentionDays).toBe(365);
    const now = Date.now();
    const old = {
      workspace_id: workspaceId,
      actor_id: null,
      actor_email: 'old@example.test',
      ip: null,
      action: 'workspace.renamed',
      target: 'x',
      before: null,
      after: null,
    };
    await server.db
      .insertInto('audit_log')
      .values([
        { ...old, id: `${(now - 400 * 86_400_000).toString(36).padStart(10, '0')}-0000000000000001`, at: now - 400 * 86_400_000 },
        { ...old, id: `${(now - 300 * 86_400_000).toString(36).padStart(10, '0')}-0000000000000002`, at: now - 300 * 86_400_000 },
      ])
      .execute();
    const olds = async () => ((await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?actor=old@example.test`)).body.data as unknown[]).length;
    expect(await olds()).toBe(2);
    await housekeeping(server.db, { auditRetentionDays: 0 });
    expect(await olds()).toBe(2);
    await housekeeping(server.db, { auditRetentionDays: server.config.auditRetentionDays });
    expect(await olds()).toBe(1);
    await housekeeping(server.db, { auditRetentionDays: 30 });
    expect(await olds()).toBe(0);
    expect(((await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit`)).body.data as unknown[]).length).toBeGreaterThan(0);
    await expect(server.db.updateTable('audit_log').set({ at: 0 }).where('workspace_id', '=', workspaceId).execute()).rejects.toThrow(
      /audit entries cannot be edited/,
    );
  });
});

describe('what the app reads at sign-in', () => {
  it("names each campaign's workspace, and a removed member's workspaces no longer hold the one they left", async () => {
    const left = await joined('Settings Leaver', 'viewer');
    const all = (await call(left, 'GET', '/api/v1/campaign/getAll')).body.data as Campaign[];
    expect(all.map((c) => [c.name, c.workspace_id])).toEqual([['Crew shop', workspaceId]]);
    expect((await workspacesOf(left)).map((w) => w.id)).toContain(workspaceId);
    await call(owner, 'DELETE', `/api/v1/workspaces/${workspaceId}/members/${left.userId}`);
    expect((await workspacesOf(left)).map((w) => w.id)).not.toContain(workspaceId);
    expect((await call(left, 'GET', '/api/v1/campaign/getAll')).body.data).toEqual([]);
  });
});

describe('deleting a workspace', () => {
  it("is the owner's only, never of a personal workspace, and takes its campaigns with everything recorded under them", async () => {
    const admin = await joined('Settings Admin', 'admin');
    for (const who of [admin, member, viewer]) {
      expect(await call(who, 'DELETE', `/api/v1/workspaces/${workspaceId}`)).toEqual({ status: 403, body: { error: 'Missing permission: workspace.delete' } });
    }
    expect((await call(stranger, 'DELETE', `/api/v1/workspaces/${workspaceId}`)).status).toBe(404);
    const personal = (await workspacesOf(owner)).find((w) => w.personal)!;
    expect(await call(owner, 'DELETE', `/api/v1/workspaces/${personal.id}`)).toEqual({
      status: 409,
      body: { error: 'A personal workspace is deleted only with its account (Account settings)' },
    });
    const token = ((await call(owner, 'POST', `/api/v1/replay/share/${campaign.id}/${session}`, { expiresIn: '1h' })).body as { token: string }).token;
    const stream = await openSse(`${server.url}/api/v1/streaming/sessions/${campaign.id}/live`, viewer.headers);
    expect(stream.status).toBe(200);

    expect(await call(owner, 'DELETE', `/api/v1/workspaces/${workspaceId}`)).toEqual({ status: 200, body: { ok: true } });
    await stream.ended;
    const db = server.db;
    const left = await Promise.all([
      db.selectFrom('campaigns').select('id').where('id', '=', campaign.id).execute(),
      db.selectFrom('sessions').select('id').where('campaign_id', '=', campaign.id).execute(),
      db.selectFrom('chunks').select('seq').where('campaign_id', '=', campaign.id).execute(),
      db.selectFrom('share_links').select('token_hash').where('campaign_id', '=', campaign.id).execute(),
    ]);
    expect(left.map((rows) => rows.length)).toEqual([0, 0, 0, 0]);
    expect((await fetch(`${server.url}/api/v1/shared/${token}`)).status).toBe(404);
    expect((await call(owner, 'GET', `/api/v1/streaming/sessions/${campaign.id}/`)).status).toBe(404);
    for (const who of [owner, admin, member, viewer]) expect((await workspacesOf(who)).map((w) => w.id)).not.toContain(workspaceId);
    expect((await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit`)).status).toBe(404);
    // Audited once, where the owner can read it: their personal workspace's log.
    const entries = (await call(owner, 'GET', `/api/v1/workspaces/${personal.id}/audit?action=workspace.deleted`)).body.data;
    expect(entries).toEqual([
      {
        at: expect.any(Number),
        actor_email: emailOf('Settings Owner'),
        ip: '127.0.0.1',
        action: 'workspace.deleted',
        target: `workspace:${workspaceId}`,
        before: { name: 'Café crew', campaigns: 1, members: 4 },
      },
    ]);
  });
});
