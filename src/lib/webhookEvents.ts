import type { WebhookEvent } from '../../common/webhooks.js';

/** Each event as the Webhooks screen and the alerts name it. */
export const EVENT_NAMES: Record<WebhookEvent, string> = {
  'session.errors': 'A session ended with errors',
  'session.frustration': 'A session ended with rage or dead clicks',
  'session.event': 'A session sent a custom event',
  'segment.match': 'A session matched a saved segment',
  'quota.near': 'A session limit or storage quota is nearly reached',
};
