import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId, type TestEvent } from './ingest-support.js';
import { claimDue, CLAIM_LEASE_MS, DELIVERIES_KEPT_MS, enqueue, nextAttemptAt, RETRY_FOR_MS } from '../../server/webhooks/repository.js';
import { housekeeping } from '../../server/cluster/jobs.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import type { DeliveryList, WebhookList } from '../../common/api/webhooks.js';

// Signed webhooks end to end (issue 38; docs/webhooks.md), with a receiver on 127.0.0.1
// (WEBHOOK_ALLOW_PRIVATE=1): the signature verifies with the recipe the docs give, a failing
// receiver gets retries with growing waits, deliveries outlive a restart and a node that died
// holding one, and a session that ends with errors through ingest is delivered once.

const RETRY_BASE_MS = 150;
let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let receiver: Receiver;
let verified: (secret: string, header: string, rawBody: string) => boolean;

beforeAll(async () => {
  server = await startServer({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), WEBHOOK_POLL_MS: '50', WEBHOOK_SCAN_MS: '3600000' });
  owner = await userSession(server, 'Hook Owner');
  receiver = await startReceiver();
  // The recipe exactly as docs/webhooks.md prints it.
  const recipe = /```js\n([\s\S]*?)```/.exec(fs.readFileSync(path.resolve('docs/webhooks.md'), 'utf8'))![1];
  const file = path.join(os.tmpdir(), `tapedeck-verify-${crypto.randomBytes(4).toString('hex')}.mjs`);
  fs.writeFileSync(file, recipe);
  ({ verified } = (await import(pathToFileURL(file).href)) as { verified: typeof verified });
  fs.rmSync(file);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const call = (method: string, url: string, body?: unknown) =>
  fetch(`${server.url}${url}`, {
    method,
    headers: { ...owner.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function addWebhook(body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const response = await call('POST', '/api/v1/webhooks', { events: ['session.errors'], ...body });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { data: { id: string; secret: string } }).data;
}

const deliveries = async (id: string) => ((await (await call('GET', `/api/v1/webhooks/${id}/deliveries`)).json()) as DeliveryList).data;
const toPath = (p: string) => receiver.received.filter((r) => r.path === p);

describe('webhooks', () => {
  it('signs a test delivery so the documented recipe verifies it; the secret is shown once and stored sealed; rotation changes it', async () => {
    const { id, secret } = await addWebhook({ url: `${receiver.url}/signed` });
    expect(secret).toMatch(/^whsec_/);
    const listed = (await (await call('GET', '/api/v1/webhooks')).json()) as WebhookList;
    expect(listed.data.find((hook) => hook.id === id)).toMatchObject({ url: `${receiver.url}/signed`, events: ['session.errors'], format: 'json' });
    expect(JSON.stringify(listed)).not.toContain(secret);
    const row = await server.db.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret.slice(6));

    const queued = await call('POST', `/api/v1/webhooks/${id}/test`);
    expect(queued.status).toBe(202);
    const { data: delivery } = (await queued.json()) as { data: { id: string } };
    await vi.waitFor(() => expect(toPath('/signed')).toHaveLength(1));
    const [got] = toPath('/signed');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['tapedeck-event']).toBe('webhook.test');
    expect(got.headers['tapedeck-delivery']).toBe(delivery.id);
    expect(verified(secret, String(got.headers['tapedeck-signature']), got.body)).toBe(true);
    expect(verified(secret, String(got.headers['tapedeck-signature']), got.body + ' ')).toBe(false);
    expect(JSON.parse(got.body)).toMatchObject({ event: 'webhook.test', delivery_id: delivery.id, data: { webhook_id: id } });
    await vi.waitFor(async () => expect(await deliveries(id)).toMatchObject([{ id: delivery.id, status: 'delivered', attempts: 1, response_code: 200 }]));

    const rotated = (await (await call('POST', `/api/v1/webhooks/${id}/rotate-secret`)).json()) as { data: { secret: string } };
    expect(rotated.data.secret).not.toBe(secret);
    await call('POST', `/api/v1/webhooks/${id}/deliveries/${delivery.id}/resend`);
    await vi.waitFor(() => expect(toPath('/signed')).toHaveLength(2));
    const again = toPath('/signed')[1];
    expect(again.headers['tapedeck-delivery']).not.toBe(delivery.id);
    expect(verified(rotated.data.secret, String(again.headers['tapedeck-signature']), again.body)).toBe(true);
    expect(verified(secret, String(again.headers['tapedeck-signature']), again.body)).toBe(false);
    const actions = await server.db.selectFrom('audit_log').select('action').where('target', '=', `webhook:${id}`).orderBy('at').execute();
    expect(actions.map((a) => a.action)).toEqual(['webhook.created', 'webhook.secret_rotated']);
  });

  it('retries a failing receiver with growing waits, the same delivery each time, until it answers', async () => {
    receiver.answer(500);
    const { id } = await addWebhook({ url: `${receiver.url}/failing`, format: 'slack' });
    await call('POST', `/api/v1/webhooks/${id}/test`);
    await vi.waitFor(() => expect(toPath('/failing').length).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    const tries = toPath('/failing');
    expect(new Set(tries.map((t) => t.headers['tapedeck-delivery'])).size).toBe(1);
    const waits = tries.slice(1, 4).map((t, i) => t.at - tries[i].at);
    // Each wait at least the doubled base (a poll's delay may add to any of them).
    waits.forEach((wait, i) => expect(wait).toBeGreaterThanOrEqual(RETRY_BASE_MS * 2 ** i - 20));
    expect(JSON.parse(tries[0].body)).toEqual({ text: 'A test delivery from Tapedeck.' });
    const [failing] = await deliveries(id);
    expect(failing).toMatchObject({ status: 'pending', response_code: 500, last_error: 'answered 500' });
    receiver.answer(200);
    await vi.waitFor(async () => expect((await deliveries(id))[0]).toMatchObject({ status: 'delivered', response_code: 200 }), { timeout: 10_000 });
  });

  it('keeps delivered and failed deliveries 30 days, and pending ones until they are done', async () => {
    const { id } = await addWebhook({ url: `${receiver.url}/kept` });
    const old = Date.now() - DELIVERIES_KEPT_MS - 1000;
    const row = (status: string, created_at: number) => ({
      id: crypto.randomUUID(),
      webhook_id: id,
      event: 'webhook.test',
      body: '{}',
      status,
      attempts: 1,
      next_attempt_at: Date.now() + 3_600_000,
      created_at,
    });
    const [delivered, failed, pending, recent] = [row('delivered', old), row('failed', old), row('pending', old), row('delivered', Date.now())];
    await server.db.insertInto('webhook_deliveries').values([delivered, failed, pending, recent]).execute();
    await housekeeping(server.db);
    const left = await server.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).execute();
    expect(left.map((d) => d.id).sort()).toEqual([pending.id, recent.id].sort());
  });

  it('gives up a day after a delivery was queued, the waits doubling to at most an hour', () => {
    expect(nextAttemptAt(0, 1, 0, 1000)).toBe(1000);
    expect(nextAttemptAt(0, 3, 10_000, 1000)).toBe(14_000);
    expect(nextAttemptAt(0, 40, 0, 1000)).toBe(3_600_000);
    expect(nextAttemptAt(0, 40, RETRY_FOR_MS - 1000, 1000)).toBeNull();
  });

  it('loses no delivery to a restart, nor to a node that died holding one', async () => {
    receiver.answer(503);
    const { id } = await addWebhook({ url: `${receiver.url}/restart` });
    await call('POST', `/api/v1/webhooks/${id}/test`);
    await vi.waitFor(() => expect(toPath('/restart').length).toBeGreaterThanOrEqual(1));
    await server.restart();
    receiver.answer(200);
    await vi.waitFor(async () => expect((await deliveries(id))[0]).toMatchObject({ status: 'delivered' }), { timeout: 10_000 });

    // A node claims the next one and dies before sending it (in one transaction, so no worker
    // claims it first): this node leaves it alone until the lease ends, then sends it.
    const held = await server.db.transaction().execute(async (trx) => {
      const queued = await enqueue(trx, { webhookId: id, event: 'webhook.test', data: {} });
      expect((await claimDue(trx, 10)).map((d) => d.id)).toEqual([queued]);
      return queued!;
    });
    await server.app.ctx.webhooks.sendDue();
    expect((await deliveries(id))[0]).toMatchObject({ id: held, status: 'pending', attempts: 1 });
    expect(toPath('/restart').filter((r) => r.headers['tapedeck-delivery'] === held)).toHaveLength(0);
    await vi.waitFor(async () => {
      await server.app.ctx.webhooks.sendDue(Date.now() + CLAIM_LEASE_MS + 1);
      expect((await deliveries(id))[0]).toMatchObject({ id: held, status: 'delivered', attempts: 2 });
    });
    expect(toPath('/restart').filter((r) => r.headers['tapedeck-delivery'] === held)).toHaveLength(1);
  });

  it('delivers session.errors once for a session that ended with errors through ingest, and nothing for one without', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const { id } = await addWebhook({ url: `${receiver.url}/errors`, campaign_id: campaignId, events: ['session.errors'] });
    const [failing, calm] = [sessionId(), sessionId()];
    const t = Date.now() - 5000;
    const error: TestEvent = {
      type: 5,
      data: { tag: 'tapedeck/error', payload: { message: 'TypeError: x is undefined', source: 'app.js:1', stack: '' } },
      timestamp: t + 2500,
    };
    expect((await postBatch(server, campaignId, { sessionId: failing, seq: 0, info: info(), events: [...pageEvents(t), error] })).status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: calm, seq: 0, info: info(), events: pageEvents(t) })).status).toBe(200);

    await server.app.ctx.webhooks.scan(Date.now());
    expect(await deliveries(id)).toEqual([]);
    // Half an hour later both have ended.
    const later = Date.now() + SESSION_IDLE_MS + 1000;
    await server.app.ctx.webhooks.scan(later);
    // Looked at again from the start (a second node, a scan cut short): the key keeps it one delivery.
    await server.db.updateTable('webhooks').set({ scanned_until: 0 }).where('id', '=', id).execute();
    await server.app.ctx.webhooks.scan(later);
    await vi.waitFor(() => expect(toPath('/errors')).toHaveLength(1));
    const body = JSON.parse(toPath('/errors')[0].body) as { event: string; data: { session: Record<string, unknown> } };
    expect(body.event).toBe('session.errors');
    expect(body.data.session).toMatchObject({ id: failing, campaign_id: campaignId, error_count: 1 });
    expect(String(body.data.session.replay_url)).toContain(`/campaign/${campaignId}/session/${failing}`);
    expect((await deliveries(id)).map((d) => d.event)).toEqual(['session.errors']);
  });

  it('delivers session.event and segment.match for a session that sent a custom event, and quota.near once at 90 % of the session limit', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, limit: 2 });
    const saved = await call('POST', `/api/v1/segments/${campaignId}`, { name: 'Buyers', filters: { event: 'purchase' } });
    expect(saved.status).toBe(201);
    const { id } = await addWebhook({ url: `${receiver.url}/events`, campaign_id: campaignId, events: ['session.event', 'segment.match', 'quota.near'] });
    const [buyer, browser] = [sessionId(), sessionId()];
    const t = Date.now() - 5000;
    const purchase: TestEvent = { type: 5, data: { tag: PEOPLE_TAGS.event, payload: { name: 'purchase' } }, timestamp: t + 2500 };
    expect((await postBatch(server, campaignId, { sessionId: buyer, seq: 0, info: info(), events: [...pageEvents(t), purchase] })).status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: browser, seq: 0, info: info(), events: pageEvents(t) })).status).toBe(200);

    const later = Date.now() + SESSION_IDLE_MS + 1000;
    await server.app.ctx.webhooks.scan(later);
    await server.app.ctx.webhooks.scan(later);
    await vi.waitFor(() => expect(toPath('/events')).toHaveLength(3));
    const bodies = toPath('/events').map((r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });
    const of = (event: string) => bodies.filter((b) => b.event === event).map((b) => b.data);
    expect(of('session.event')).toMatchObject([{ session: { id: buyer, events: { purchase: 1 } } }]);
    expect(of('segment.match')).toMatchObject([{ session: { id: buyer }, segments: [{ name: 'Buyers' }] }]);
    expect(of('quota.near')).toEqual([{ campaign: { id: campaignId, name: 'Ingest test' }, limit: 'sessions', used: 2, of: 2 }]);
    expect((await deliveries(id)).every((d) => d.status === 'delivered')).toBe(true);
  });

  it.skipIf(!usingPostgres())('delivers each delivery once when two nodes on one PostgreSQL claim at the same time', async () => {
    receiver.answer(200);
    const { id } = await addWebhook({ url: `${receiver.url}/twice` });
    const other = await server.twin();
    try {
      const queued = await server.db.transaction().execute(async (trx) => {
        const ids: string[] = [];
        for (let i = 0; i < 40; i++) ids.push((await enqueue(trx, { webhookId: id, event: 'webhook.test', data: { i } }))!);
        return ids;
      });
      await vi.waitFor(
        async () => {
          await Promise.all([server.app.ctx.webhooks.sendDue(), other.ctx.webhooks.sendDue()]);
          const pending = await server.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('webhook_id', '=', id)
            .where('status', '!=', 'delivered')
            .execute();
          expect(pending).toEqual([]);
        },
        { timeout: 15_000 },
      );
      expect(toPath('/twice')).toHaveLength(queued.length);
      expect(new Set(toPath('/twice').map((r) => r.headers['tapedeck-delivery']))).toEqual(new Set(queued));
      const attempts = await server.db.selectFrom('webhook_deliveries').select('attempts').where('webhook_id', '=', id).execute();
      expect(attempts.map((a) => Number(a.attempts))).toEqual(queued.map(() => 1));
    } finally {
      await other.close();
    }
  });

  it('refuses webhooks.manage to a member, and an unknown webhook with 404', async () => {
    const member = await userSession(server, 'Hook Member');
    const { workspace_id } = await server.db
      .selectFrom('workspaces')
      .select('id as workspace_id')
      .where('personal_of', '=', owner.userId)
      .executeTakeFirstOrThrow();
    await server.db.insertInto('workspace_members').values({ workspace_id, user_id: member.userId, role: 'member', joined_at: Date.now() }).execute();
    const response = await fetch(`${server.url}/api/v1/webhooks?workspace_id=${workspace_id}`, { headers: member.headers });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Missing permission: webhooks.manage' });
    expect((await call('DELETE', `/api/v1/webhooks/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await call('POST', '/api/v1/webhooks', { url: `${receiver.url}/x`, events: ['nothing'] })).status).toBe(400);
  });
});
