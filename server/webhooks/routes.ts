import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { Ok } from '../../common/api/shared.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { campaignAlerts } from './alerts.js';
import {
  AlertList,
  AlertParams,
  CreatedWebhook,
  DeliveryList,
  DeliveryParams,
  QueuedDelivery,
  RotatedSecret,
  WebhookBody,
  WebhookList,
  WebhookParams,
  WebhooksQuery,
} from '../../common/api/webhooks.js';
import { DELIVERY_NOT_FOUND, TEST_EVENT, WEBHOOK_LIMIT_REACHED, WEBHOOK_NOT_FOUND, WEBHOOKS_PER_WORKSPACE } from '../../common/webhooks.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { emptyJsonIsNoBody } from '../http/json-body.js';
import { minuteLimit } from '../http/rate-limit.js';
import { workspaceAccess } from '../teams/access.js';
import { audit } from '../teams/audit.js';
import { personalWorkspace } from '../teams/repository.js';
import { addressRule, checkedAddress, endpointUrl, TargetRefused } from './guard.js';
import { addWebhook, deleteWebhook, deliveriesOf, enqueue, findDelivery, findWebhook, replaceSecret, toWebhook, webhooksOf } from './repository.js';
import { newWebhookSecret, sealSecret } from './sign.js';

/** Webhook changes (add, delete, rotate, test, re-send) one account may make per minute. */
const CHANGES_PER_USER = 60;
/** A webhook's body is an address and a few names. */
const BODY_LIMIT = 8 * 1024;

const target = (id: string) => `webhook:${id}`;

/** A workspace's signed webhooks and their deliveries (issue 38; docs/webhooks.md). Owners and admins only (webhooks.manage). */
export async function registerWebhooks(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    emptyJsonIsNoBody(scope);
    webhookRoutes(scope, ctx);
  });
}

function webhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = ctx;
  const { allowPrivate } = ctx.config.webhooks;
  const preHandler = requireUser(ctx);
  const config = { permission: 'webhooks.manage' as const };
  const changeLimit = minuteLimit(app, 'webhook-change-user', CHANGES_PER_USER);
  const sealed = (secret: string) => sealSecret(ctx.webhooks.sealingKey, secret);

  /** The webhook of the path, for a caller who may manage its workspace's webhooks (404 otherwise, or 403 naming the permission). */
  const ownWebhook = async (request: FastifyRequest, id: string) => {
    const hook = await findWebhook(db, id);
    if (!hook) throw notFound(WEBHOOK_NOT_FOUND);
    const access = await workspaceAccess(db, request, hook.workspace_id).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? notFound(WEBHOOK_NOT_FOUND) : error;
    });
    return { hook, access };
  };

  /** 400 unless the endpoint is one a webhook may have: its form, and every address its name has now. */
  const checkedEndpoint = async (text: string) => {
    try {
      const url = endpointUrl(text, allowPrivate);
      await checkedAddress(url, addressRule(allowPrivate));
      return url.href;
    } catch (error) {
      throw error instanceof TargetRefused ? badRequest(error.message) : error;
    }
  };

  /** The workspace a new webhook goes to: the one named, the campaign's, or the caller's personal one. */
  const workspaceOf = async (request: FastifyRequest, body: WebhookBody) => {
    if (body.campaign_id) {
      const campaign = await db.selectFrom('campaigns').select('workspace_id').where('id', '=', body.campaign_id).executeTakeFirst();
      if (!campaign || (body.workspace_id && body.workspace_id !== campaign.workspace_id)) throw notFound('Campaign not found');
      return campaign.workspace_id;
    }
    return body.workspace_id ?? personalWorkspace(db, currentUserId(request));
  };

  api.post(
    '/api/v1/webhooks',
    { config, preHandler, bodyLimit: BODY_LIMIT, schema: { body: WebhookBody, response: { 201: CreatedWebhook } } },
    async (request, reply) => {
      const userId = currentUserId(request);
      await changeLimit(request, reply, userId);
      const { workspaceId } = await workspaceAccess(db, request, await workspaceOf(request, request.body));
      const url = await checkedEndpoint(request.body.url);
      const { events, campaign_id = null, format = 'json' } = request.body;
      const secret = newWebhookSecret();
      const id = await db.transaction().execute(async (trx) => {
        const made = await addWebhook(
          trx,
          { workspaceId, campaignId: campaign_id, url, events, format, sealedSecret: sealed(secret), createdBy: userId },
          WEBHOOKS_PER_WORKSPACE,
        );
        if (made) await audit(trx, request, workspaceId, { action: 'webhook.created', target: target(made), after: { url, events, campaign_id, format } });
        return made;
      });
      if (!id) throw new HttpError(409, WEBHOOK_LIMIT_REACHED);
      return reply.status(201).send({ data: { id, secret } });
    },
  );

  api.get('/api/v1/webhooks', { config, preHandler, schema: { querystring: WebhooksQuery, response: { 200: WebhookList } } }, async (request, reply) => {
    const workspaceId = request.query.workspace_id ?? (await personalWorkspace(db, currentUserId(request)));
    await workspaceAccess(db, request, workspaceId);
    reply.header('cache-control', 'private, no-cache');
    return { data: (await webhooksOf(db, workspaceId)).map(toWebhook) };
  });

  api.delete('/api/v1/webhooks/:webhookId', { config, preHandler, schema: { params: WebhookParams, response: { 200: Ok } } }, async (request, reply) => {
    await changeLimit(request, reply, currentUserId(request));
    const { hook } = await ownWebhook(request, request.params.webhookId);
    await db.transaction().execute(async (trx) => {
      await deleteWebhook(trx, hook.id);
      await audit(trx, request, hook.workspace_id, { action: 'webhook.deleted', target: target(hook.id), before: { url: hook.url } });
    });
    return { ok: true as const };
  });

  api.post(
    '/api/v1/webhooks/:webhookId/rotate-secret',
    { config, preHandler, schema: { params: WebhookParams, response: { 200: RotatedSecret } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const { hook } = await ownWebhook(request, request.params.webhookId);
      const secret = newWebhookSecret();
      await db.transaction().execute(async (trx) => {
        await replaceSecret(trx, hook.id, sealed(secret));
        await audit(trx, request, hook.workspace_id, { action: 'webhook.secret_rotated', target: target(hook.id) });
      });
      return { data: { secret } };
    },
  );

  /** Queues a delivery and wakes this node's worker, so a test or a re-send goes out at once. */
  const queued = async (webhookId: string, event: string, data: unknown) => {
    const id = (await enqueue(db, { webhookId, event, data }))!;
    void ctx.webhooks.sendDue();
    return { data: { id } };
  };

  api.post(
    '/api/v1/webhooks/:webhookId/test',
    { config, preHandler, schema: { params: WebhookParams, response: { 202: QueuedDelivery } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const { hook } = await ownWebhook(request, request.params.webhookId);
      return reply.status(202).send(await queued(hook.id, TEST_EVENT, { webhook_id: hook.id, message: 'A test delivery from Tapedeck' }));
    },
  );

  api.get(
    '/api/v1/webhooks/:webhookId/deliveries',
    { config, preHandler, schema: { params: WebhookParams, response: { 200: DeliveryList } } },
    async (request, reply) => {
      const { hook } = await ownWebhook(request, request.params.webhookId);
      reply.header('cache-control', 'private, no-cache');
      return { data: await deliveriesOf(db, hook.id) };
    },
  );

  api.post(
    '/api/v1/webhooks/:webhookId/deliveries/:deliveryId/resend',
    { config, preHandler, schema: { params: DeliveryParams, response: { 202: QueuedDelivery } } },
    async (request, reply) => {
      await changeLimit(request, reply, currentUserId(request));
      const { hook } = await ownWebhook(request, request.params.webhookId);
      const delivery = await findDelivery(db, hook.id, request.params.deliveryId);
      if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
      return reply.status(202).send(await queued(hook.id, delivery.event, JSON.parse(delivery.body)));
    },
  );

  // Alerts in the app: whoever watches the campaign's sessions sees them (alerts.ts).
  api.get(
    '/api/v1/alerts/:campaignId',
    { config: { permission: 'sessions.watch' }, preHandler, schema: { params: AlertParams, response: { 200: AlertList } } },
    async (request, reply) => {
      const campaign = await ownedCampaign(db, request, request.params.campaignId);
      reply.header('cache-control', 'private, no-cache');
      return { data: await campaignAlerts(ctx, campaign) };
    },
  );
}
