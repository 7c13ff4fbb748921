import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';
import type { AlertList, DeliveryList, WebhookBody, WebhookList } from '../../common/api/webhooks.js';

// A workspace's webhooks and their deliveries (issue 38; docs/webhooks.md).

const id = encodeURIComponent;
const one = (webhookId: string) => `/api/v1/webhooks/${id(webhookId)}`;

export const webhookKeys = {
  list: (workspaceId: string) => ['webhooks', workspaceId] as const,
  deliveries: (webhookId: string) => ['webhooks', 'deliveries', webhookId] as const,
};

export const webhooksQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: webhookKeys.list(workspaceId),
    queryFn: async () => (await api.get<WebhookList>(`/api/v1/webhooks?workspace_id=${id(workspaceId)}`)).data,
  });

/** The log polls while a delivery waits, so a test shows its outcome without a reload. */
export const deliveriesQueryOptions = (webhookId: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(webhookId),
    queryFn: async () => (await api.get<DeliveryList>(`${one(webhookId)}/deliveries`)).data,
    refetchInterval: (query) => (query.state.data?.some((delivery) => delivery.status === 'pending') ? 2000 : false),
  });

export const addWebhook = async (body: WebhookBody) => (await api.post<{ data: { id: string; secret: string } }>('/api/v1/webhooks', body)).data;
export const deleteWebhook = (webhookId: string) => api.delete(one(webhookId));
export const testWebhook = (webhookId: string) => api.post(`${one(webhookId)}/test`);
export const resendDelivery = (webhookId: string, deliveryId: string) => api.post(`${one(webhookId)}/deliveries/${id(deliveryId)}/resend`);
export const rotateSecret = async (webhookId: string) => (await api.post<{ data: { secret: string } }>(`${one(webhookId)}/rotate-secret`)).data;

/** A campaign's alerts (the dashboard's badge, the campaign's list), read again every minute. */
export const alertsQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: ['alerts', campaignId] as const,
    queryFn: async () => (await api.get<AlertList>(`/api/v1/alerts/${id(campaignId)}`)).data,
    staleTime: 60_000,
  });
