import { Type, type Static } from 'typebox';
import { MadeId, Nullable } from './shared.js';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, WEBHOOK_URL_MAX } from '../webhooks.js';

// Signed webhooks of a workspace (issue 38; docs/webhooks.md): the API's shapes, which clients
// and tests rely on (the events, formats and caps are common/webhooks.ts).

const event = Type.Enum(WEBHOOK_EVENTS);
const format = Type.Enum(WEBHOOK_FORMATS);

export const WebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX }),
    events: Type.Array(event, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
    campaign_id: Type.Optional(MadeId()),
    format: Type.Optional(format),
    workspace_id: Type.Optional(MadeId()),
  },
  { additionalProperties: false },
);
export type WebhookBody = Static<typeof WebhookBody>;

export const WebhooksQuery = Type.Object({ workspace_id: Type.Optional(MadeId()) }, { additionalProperties: false });
export const WebhookParams = Type.Object({ webhookId: MadeId() });
export const DeliveryParams = Type.Object({ webhookId: MadeId(), deliveryId: MadeId() });

/** The secret, shown when the webhook is made and when it is rotated, never again. */
export const CreatedWebhook = Type.Object({ data: Type.Object({ id: Type.String(), secret: Type.String() }) });
export const RotatedSecret = Type.Object({ data: Type.Object({ secret: Type.String() }) });
export const QueuedDelivery = Type.Object({ data: Type.Object({ id: Type.String() }) });

export const Webhook = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  campaign_id: Nullable(Type.String()),
  url: Type.String(),
  events: Type.Array(Type.String()),
  format: Type.String(),
  created_at: Type.Number(),
});
export type Webhook = Static<typeof Webhook>;
export const WebhookList = Type.Object({ data: Type.Array(Webhook) });
export type WebhookList = Static<typeof WebhookList>;

export const Delivery = Type.Object({
  id: Type.String(),
  event: Type.String(),
  /** 'pending', 'delivered' or 'failed'. */
  status: Type.String(),
  attempts: Type.Number(),
  response_code: Nullable(Type.Number()),
  /** When it was delivered, else when it was queued. */
  at: Type.Number(),
  last_error: Nullable(Type.String()),
});
export type Delivery = Static<typeof Delivery>;
export const DeliveryList = Type.Object({ data: Type.Array(Delivery) });
export type DeliveryList = Static<typeof DeliveryList>;

/** An alert in the app: a webhook's event in a campaign (session_id null for quota.near). */
export const Alert = Type.Object({ event: Type.String(), session_id: Nullable(Type.String()), at: Type.Number() });
export type Alert = Static<typeof Alert>;
export const AlertList = Type.Object({ data: Type.Array(Alert) });
export type AlertList = Static<typeof AlertList>;
export const AlertParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });
