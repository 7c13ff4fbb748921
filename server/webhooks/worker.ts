import type { FastifyBaseLogger } from 'fastify';
import { oneNodeAtATime } from '../cluster/jobs.js';
import { post, type Outcome, type Policy } from './deliver.js';
import { addressRule } from './guard.js';
import { claimDue, settle, type DeliveryRow, type WebhookRow } from './repository.js';
import { openSecret, signature } from './sign.js';
import { scanForEvents, type EventSources } from './events.js';
import { TEST_EVENT } from '../../common/webhooks.js';

// The deliveries' worker, on every node: every poll it claims the due deliveries (claimDue: each
// goes to one node) and sends them, each signed with its webhook's secret at the moment it is
// sent. Every scan it looks for new events, one node at a time. Deliveries are rows, so what a
// node had not sent when it stopped is sent after its lease by whichever node polls next.

/** Deliveries one node sends at once. */
const CLAIMED_AT_ONCE = 10;

interface WorkerTiming {
  pollMs: number;
  scanMs: number;
  retryBaseMs: number;
}

/** A delivery's body as sent: {event, delivery_id, created_at, data}, or Slack's {text}. */
function renderBody(delivery: DeliveryRow, format: string): string {
  const data = JSON.parse(delivery.body) as Record<string, unknown>;
  if (format === 'slack') return JSON.stringify({ text: slackText(delivery.event, data) });
  return JSON.stringify({ event: delivery.event, delivery_id: delivery.id, created_at: new Date(Number(delivery.created_at)).toISOString(), data });
}

type Said = { session?: Record<string, unknown>; campaign?: { name?: string }; segments?: { name: string }[]; limit?: string; used?: number; of?: number };

/** One line for a Slack channel, with the replay's link. */
function slackText(event: string, data: Said): string {
  const s = data.session ?? {};
  const link = s.replay_url ? ` <${String(s.replay_url)}|Watch the replay>` : '';
  const where = `in ${String(s.campaign_name ?? '')}`;
  switch (event) {
    case 'session.errors':
      return `A session ${where} ended with ${String(s.error_count)} errors.${link}`;
    case 'session.frustration':
      return `A session ${where} ended with ${String(s.rage_click_count)} rage clicks and ${String(s.dead_click_count)} dead clicks.${link}`;
    case 'session.event':
      return `A session ${where} sent ${Object.keys((s.events as object) ?? {}).join(', ')}.${link}`;
    case 'segment.match':
      return `A session ${where} matches ${(data.segments ?? []).map((m) => m.name).join(', ')}.${link}`;
    case 'quota.near':
      return `${data.campaign?.name ?? 'A campaign'} is near its ${data.limit === 'storage' ? 'storage quota' : 'session limit'}: ${data.used} of ${data.of}.`;
    case TEST_EVENT:
      return 'A test delivery from Tapedeck.';
    default:
      return event;
  }
}

export class WebhookWorker {
  readonly #policy: Policy;
  #timers: NodeJS.Timeout[] = [];
  #closed = false;
  #sending: Promise<void> | null = null;
  #scanning: Promise<void> | null = null;

  constructor(
    private readonly ctx: EventSources,
    /** What webhooks' secrets are sealed under (sign.ts). */
    readonly sealingKey: Buffer,
    private readonly timing: WorkerTiming,
    private readonly log: FastifyBaseLogger,
  ) {
    const allowPrivate = ctx.config.webhooks.allowPrivate;
    this.#policy = { allowed: addressRule(allowPrivate), allowHttp: allowPrivate };
  }

  start(): void {
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(() => void run(), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(this.timing.pollMs, () => this.sendDue());
    every(this.timing.scanMs, () => this.scan());
  }

  /** Stops polling; waits for what is being sent. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    await Promise.allSettled([this.#sending, this.#scanning]);
  }

  /** Looks for new events (one node at a time; a scan still running is not started again). */
  scan(now?: number): Promise<void> {
    this.#scanning ??= oneNodeAtATime(this.ctx.db, 'webhook-scan', async () => scanForEvents(this.ctx, now))
      .then(() => undefined)
      .catch((error: unknown) => this.log.warn({ err: error }, 'webhook scan failed'))
      .finally(() => (this.#scanning = null));
    return this.#scanning;
  }

  /** Claims the due deliveries and sends them (a round still sending is not started again). */
  sendDue(now?: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#sending ??= this.#round(now)
      .catch((error: unknown) => this.log.warn({ err: error }, 'webhook deliveries failed'))
      .finally(() => (this.#sending = null));
    return this.#sending;
  }

  async #round(now?: number): Promise<void> {
    const claimed = await claimDue(this.ctx.db, CLAIMED_AT_ONCE, now);
    await Promise.all(claimed.map((delivery) => this.#send(delivery)));
  }

  async #send(delivery: DeliveryRow): Promise<void> {
    const hook = await this.ctx.db.selectFrom('webhooks').selectAll().where('id', '=', delivery.webhook_id).executeTakeFirst();
    if (!hook) return;
    let outcome: Outcome;
    try {
      const body = renderBody(delivery, hook.format);
      outcome = await post(hook.url, this.#headers(hook, delivery, body), body, this.#policy);
    } catch (error) {
      // A secret sealed under another server secret, a body that does not parse: a failed attempt, retried as any.
      this.log.warn({ err: error, delivery: delivery.id }, 'a webhook delivery could not be signed');
      outcome = { delivered: false, responseCode: null, error: 'could not be signed' };
    }
    await settle(this.ctx.db, delivery, outcome, this.timing.retryBaseMs);
  }

  #headers(hook: WebhookRow, delivery: DeliveryRow, body: string): Record<string, string> {
    const at = Math.floor(Date.now() / 1000);
    return {
      'content-type': 'application/json',
      'tapedeck-event': delivery.event,
      'tapedeck-delivery': delivery.id,
      'tapedeck-signature': signature(openSecret(this.sealingKey, hook.secret), at, body),
    };
  }
}
