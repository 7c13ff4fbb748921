import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { openSse } from '../helpers/sse.js';
import { createCampaign, info, pageEvents, postBatch, sessionId } from './ingest-support.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import type { Campaign } from '../../common/api-types.js';
import { PERMISSIONS } from '../../common/teams.js';

// Workspaces, invites, members and the audit log (issue 37), over HTTP on the test's database.

type Session = Awaited<ReturnType<typeof userSession>>;

let server: TestServer;
let owner: Session;
let invited: Session;
let stranger: Session;
let workspaceId: string;

const VISITOR = 'visitor-person-42@shop.test';

async function call(session: Session, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...session.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    body: (type.startsWith('application/json') ? await res.json() : await res.text()) as Record<string, unknown> & { data: unknown },
  };
}

const tokenOf = (url: string) => url.split('/invite/')[1];

interface AuditRow {
  at: number;
  actor_email: string | null;
  ip: string | null;
  action: string;
  target: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}
const auditOf = async (query = '') => (await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit${query}`)).body.data as AuditRow[];

beforeAll(async () => {
  server = await startServer({ PUBLIC_URL: 'https://tapedeck.example' });
  owner = await userSession(server, 'Team Owner');
  invited = await userSession(server, 'Team Invited');
  stranger = await userSession(server, 'Team Stranger');
});
afterAll(async () => server?.close());

describe('workspaces', () => {
  it('gives every account its personal workspace, as its owner, and makes more', async () => {
    expect((await call(owner, 'GET', '/api/v1/workspaces')).body).toEqual({
      data: [
        {
          id: expect.any(String),
          name: 'Personal',
          role: 'owner',
          personal: true,
          viewers_can_download: false,
          viewers_can_share: false,
          permissions: Object.keys(PERMISSIONS),
        },
      ],
    });
    const made = await call(owner, 'POST', '/api/v1/workspaces', { name: '  Shop team ' });
    expect(made).toEqual({ status: 201, body: { data: { id: expect.any(String) } } });
    workspaceId = (made.body.data as { id: string }).id;
    const list = (await call(owner, 'GET', '/api/v1/workspaces')).body.data as { name: string; role: string }[];
    expect(list.map((w) => [w.name, w.role])).toEqual([
      ['Personal', 'owner'],
      ['Shop team', 'owner'],
    ]);
    // Another account does not see it.
    expect((await call(stranger, 'GET', `/api/v1/workspaces/${workspaceId}/members`)).status).toBe(404);
  });

  it("puts a campaign in the personal workspace by default, in another when asked, and lists one workspace's", async () => {
    const personal = await createCampaign(server, owner.headers, 'Mine');
    const team = await call(owner, 'POST', '/api/v1/campaign/create', {
      name: 'Team shop',
      domains: 'shop.example.com',
      start_date_time: 1,
      end_date_time: 2e12,
      workspace_id: workspaceId,
    });
    expect(team.status).toBe(201);
    const names = async (query = '') => ((await call(owner, 'GET', `/api/v1/campaign/getAll${query}`)).body.data as Campaign[]).map((c) => c.name);
    expect(await names()).toEqual(['Team shop', 'Mine']);
    expect(await names(`?workspace_id=${workspaceId}`)).toEqual(['Team shop']);
    expect(personal.name).toBe('Mine');
    // A stranger can neither list nor create there.
    expect((await call(stranger, 'GET', `/api/v1/campaign/getAll?workspace_id=${workspaceId}`)).status).toBe(404);
    const refused = await call(stranger, 'POST', '/api/v1/campaign/create', {
      name: 'X',
      domains: 'x.example.com',
      start_date_time: 1,
      end_date_time: 2e12,
      workspace_id: workspaceId,
    });
    expect([refused.status, refused.body]).toEqual([404, { error: 'Workspace not found' }]);
  });
});

describe('invites', () => {
  it('are links for one e-mail and role, that expire in 3 days, listed while pending', async () => {
    const before = Date.now();
    const made = await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites`, { email: 'Team.Invited@Example.test', role: 'member' });
    expect(made.status).toBe(201);
    const { id, url, expires_at: expiresAt, emailed } = made.body.data as { id: string; url: string; expires_at: number; emailed: boolean };
    // Without SMTP_URL nothing is sent: the admin copies the link.
    expect(emailed).toBe(false);
    expect(url).toMatch(/^https:\/\/tapedeck\.example\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(expiresAt - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1000);
    expect(expiresAt - before).toBeLessThanOrEqual(72 * 3_600_000 + 5000);
    const pending = (await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/invites`)).body.data;
    expect(pending).toEqual([{ id, email: 'team.invited@example.test', role: 'member', created_at: expect.any(Number), expires_at: expiresAt }]);
    // Only the invited address may accept; then it works once.
    const wrong = await call(stranger, 'POST', `/api/v1/invites/${tokenOf(url)}/accept`);
    expect([wrong.status, wrong.body]).toEqual([403, { error: 'This invite is for another e-mail address' }]);
    const accepted = await call(invited, 'POST', `/api/v1/invites/${tokenOf(url)}/accept`);
    expect(accepted).toEqual({ status: 200, body: { data: { workspace_id: workspaceId, role: 'member' } } });
    expect((await call(invited, 'POST', `/api/v1/invites/${tokenOf(url)}/accept`)).status).toBe(404);
    expect((await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/invites`)).body.data).toEqual([]);
    const members = (await call(invited, 'GET', `/api/v1/workspaces/${workspaceId}/members`)).body.data as { email: string; role: string }[];
    expect(members.map((m) => [m.email, m.role])).toEqual([
      ['team.owner@example.test', 'owner'],
      ['team.invited@example.test', 'member'],
    ]);
  });

  it('can be revoked and sent again (the old link stops working), and expire', async () => {
    const made = (await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites`, { email: 'team.stranger@example.test', role: 'viewer' })).body
      .data as { id: string; url: string };
    const again = await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites/${made.id}/resend`);
    expect(again.status).toBe(201);
    const resent = again.body.data as { id: string; url: string };
    expect(resent.id).not.toBe(made.id);
    expect((await call(stranger, 'POST', `/api/v1/invites/${tokenOf(made.url)}/accept`)).status).toBe(404);
    expect((await call(owner, 'DELETE', `/api/v1/workspaces/${workspaceId}/invites/${resent.id}`)).body).toEqual({ ok: true });
    expect((await call(stranger, 'POST', `/api/v1/invites/${tokenOf(resent.url)}/accept`)).status).toBe(404);
    expect((await call(owner, 'DELETE', `/api/v1/workspaces/${workspaceId}/invites/${resent.id}`)).status).toBe(404);
    // An expired one.
    const old = (await call(owner, 'POST', `/api/v1/workspaces/${workspaceId}/invites`, { email: 'team.stranger@example.test', role: 'viewer' })).body.data as {
      id: string;
      url: string;
    };
    await server.db
      .updateTable('workspace_invites')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', old.id)
      .execute();
    expect((await call(stranger, 'POST', `/api/v1/invites/${tokenOf(old.url)}/accept`)).status).toBe(404);
    expect((await call(stranger, 'GET', `/api/v1/workspaces/${workspaceId}/members`)).status).toBe(404);
  });
});

describe('members', () => {
  it('change roles; only the owner hands the workspace over', async () => {
    const path = `/api/v1/workspaces/${workspaceId}/members/${invited.userId}`;
    expect((await call(owner, 'PATCH', path, { role: 'admin' })).body).toEqual({ ok: true });
    const transfer = await call(invited, 'PATCH', `/api/v1/workspaces/${workspaceId}/members/${owner.userId}`, { role: 'admin' });
    expect([transfer.status, transfer.body]).toEqual([403, { error: 'The owner keeps their role until they transfer the workspace' }]);
    const self = await call(invited, 'PATCH', path, { role: 'owner' });
    expect([self.status, self.body]).toEqual([403, { error: 'Missing permission: workspace.transfer' }]);
    expect((await call(owner, 'PATCH', path, { role: 'member' })).body).toEqual({ ok: true });
  });

  it('removed, lose the workspace at once, open live views included', async () => {
    const campaign = ((await call(owner, 'GET', `/api/v1/campaign/getAll?workspace_id=${workspaceId}`)).body.data as Campaign[])[0];
    const stream = await openSse(`${server.url}/api/v1/streaming/sessions/${campaign.id}/live`, invited.headers);
    expect(stream.status).toBe(200);
    expect((await call(owner, 'DELETE', `/api/v1/workspaces/${workspaceId}/members/${invited.userId}`)).body).toEqual({ ok: true });
    await stream.ended;
    expect((await call(invited, 'GET', `/api/v1/streaming/sessions/${campaign.id}/`)).status).toBe(404);
    expect((await call(invited, 'GET', `/api/v1/workspaces/${workspaceId}/members`)).status).toBe(404);
    expect(((await call(invited, 'GET', '/api/v1/campaign/getAll')).body.data as Campaign[]).map((c) => c.name)).toEqual([]);
    const owners = await call(owner, 'DELETE', `/api/v1/workspaces/${workspaceId}/members/${owner.userId}`);
    expect([owners.status, owners.body]).toEqual([403, { error: 'The owner cannot be removed: transfer the workspace first' }]);
  });
});

describe('the audit log', () => {
  it('keeps exactly one entry for each audited action, with who, when, where and the setting before and after', async () => {
    const start = Date.now();
    const counted = async () =>
      Object.fromEntries((await auditOf('?limit=500')).reduce((m, e) => m.set(e.action, (m.get(e.action) ?? 0) + 1), new Map<string, number>()));
    const was = await counted();
    const once = async (action: string, work: () => Promise<unknown>) => {
      const before = await counted();
      await work();
      const after = await counted();
      expect({ action, added: (after[action] ?? 0) - (before[action] ?? 0) }).toEqual({ action, added: 1 });
      expect(Object.values(after).reduce((a, b) => a + b, 0) - Object.values(before).reduce((a, b) => a + b, 0)).toBe(1);
    };
    expect(was['workspace.created']).toBe(1);
    expect(was['member.invited']).toBe(4);
    expect(was['member.joined']).toBe(1);
    expect(was['member.role_changed']).toBe(2);
    expect(was['member.removed']).toBe(1);
    expect(was['invite.revoked']).toBe(1);
    expect(was['campaign.created']).toBe(1);

    let campaign = '';
    await once('campaign.created', async () => {
      const made = await call(owner, 'POST', '/api/v1/campaign/create', {
        name: 'Audited',
        domains: 'shop.example.com',
        start_date_time: 1,
        end_date_time: 2e12,
        workspace_id: workspaceId,
      });
      campaign = (made.body.data as { id: string }).id;
    });
    await once('campaign.edited', () => call(owner, 'PATCH', `/api/v1/campaign/update/${campaign}`, { name: 'Audited again' }));
    await once('campaign.rules_changed', () => call(owner, 'PATCH', `/api/v1/campaign/update/${campaign}`, { block_selector: '.secret' }));
    const session = sessionId();
    const events = [...pageEvents(), { type: 5, data: { tag: PEOPLE_TAGS.identify, payload: { userId: VISITOR } }, timestamp: Date.now() - 500 }];
    expect((await postBatch(server, campaign, { sessionId: session, seq: 0, info: info(), events })).status).toBe(200);
    let token = '';
    await once('share.created', async () => {
      token = (await call(owner, 'POST', `/api/v1/replay/share/${campaign}/${session}`, { expiresIn: '1h' })).body.token as string;
    });
    await once('share.revoked', () => call(owner, 'DELETE', `/api/v1/replay/share/${token}`));
    await once('recording.downloaded', () => call(owner, 'GET', `/api/v1/replay/export/${campaign}/${session}`));
    await once('person.erased', () => call(owner, 'DELETE', `/api/v1/people/${campaign}/${encodeURIComponent(VISITOR)}`));
    const second = sessionId();
    expect((await postBatch(server, campaign, { sessionId: second, seq: 0, info: info(), events: pageEvents() })).status).toBe(200);
    await once('session.erased', () => call(owner, 'DELETE', `/api/v1/streaming/sessions/${campaign}/${second}`));
    await once('campaign.deleted', () => call(owner, 'DELETE', `/api/v1/campaign/delete/${campaign}`));
    await once('workspace.renamed', () => call(owner, 'PATCH', `/api/v1/workspaces/${workspaceId}`, { name: 'Shop people' }));

    const entries = await auditOf();
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort((a, b) => b - a));
    expect(entries[0]).toEqual({
      at: expect.any(Number),
      actor_email: 'team.owner@example.test',
      ip: '127.0.0.1',
      action: 'workspace.renamed',
      target: `workspace:${workspaceId}`,
      before: { name: 'Shop team' },
      after: { name: 'Shop people' },
    });
    const edit = entries.find((e) => e.action === 'campaign.edited');
    expect([edit?.before, edit?.after]).toEqual([{ name: 'Audited' }, { name: 'Audited again' }]);
    const rules = entries.find((e) => e.action === 'campaign.rules_changed');
    expect([rules?.before, rules?.after]).toEqual([{ block_selector: '' }, { block_selector: '.secret' }]);
    // Never a visitor's data.
    const text = JSON.stringify(entries);
    for (const secret of [VISITOR, 'visitor-person']) expect(text).not.toContain(secret);

    // Filters, and the export.
    expect((await auditOf('?action=campaign.deleted')).map((e) => e.target)).toEqual([`campaign:${campaign}`]);
    expect(await auditOf('?actor=nobody@example.test')).toEqual([]);
    expect((await auditOf(`?actor=TEAM.OWNER@example.test&from=${start}`)).length).toBe(10);
    expect(await auditOf(`?to=${start - 60_000}`)).toEqual([]);
    const exported = await call(owner, 'GET', `/api/v1/workspaces/${workspaceId}/audit?format=jsonl`);
    const lines = (exported.body as unknown as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditRow);
    expect(lines).toEqual(await auditOf('?limit=500'));
  });

  it('cannot be edited, and is read only by those allowed to', async () => {
    await expect(server.db.updateTable('audit_log').set({ action: 'nothing' }).where('workspace_id', '=', workspaceId).execute()).rejects.toThrow(
      /audit entries cannot be edited/,
    );
    expect((await call(stranger, 'GET', `/api/v1/workspaces/${workspaceId}/audit`)).status).toBe(404);
  });
});
