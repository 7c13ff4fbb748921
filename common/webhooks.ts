// Signed webhooks of a workspace (issue 38; docs/webhooks.md): the events, formats and caps, for
// the server and the PWA alike (common/api/webhooks.ts has the API's schemas).

/** The events a webhook may pick. */
export const WEBHOOK_EVENTS = ['session.errors', 'session.frustration', 'session.event', 'segment.match', 'quota.near'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event of a delivery queued by the Test button (never picked: every webhook gets it on request). */
export const TEST_EVENT = 'webhook.test';

export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Webhooks one workspace may keep. */
export const WEBHOOKS_PER_WORKSPACE = 20;
/** The longest endpoint address taken. */
export const WEBHOOK_URL_MAX = 2000;
/** Deliveries the log lists (the newest). */
export const DELIVERIES_LISTED = 100;

export const WEBHOOK_LIMIT_REACHED = `A workspace keeps at most ${WEBHOOKS_PER_WORKSPACE} webhooks: delete one first`;
export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const DELIVERY_NOT_FOUND = 'Delivery not found';
