import { eventTime, note, type Batch } from './batch.js';
import { BatchQueue } from './queue.js';
import { retryDelay } from './backoff.js';
import { FIRST_CONTACT_TRIES, QUEUE_BATCHES, QUEUE_BYTES, UNLOAD_BATCH_BYTES } from '../../common/limits.js';

/** Ingest's answer: the HTTP status (0 when the network or CORS failed) and its Retry-After in seconds. */
export interface Answer {
  status: number;
  retryAfter?: number;
}

/** The longest a Retry-After is honoured for: a page rarely stays open longer. */
const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;

export interface SenderDeps {
  post(body: BodyInit, keepalive: boolean): Promise<Answer>;
  /** Makes a batch's body: masked and compressed, off the page's main thread where it can. */
  pack(batch: Batch): Promise<BodyInit>;
  /** Makes a batch's body at once, uncompressed: the page is unloading and cannot wait. */
  packNow(batch: Batch): string;
  later(run: () => void, ms: number): void;
  /** A refusal (or a page that never reached ingest): the tracker stops for this page. */
  onStop(reason: string, refused: boolean): void;
  onDelivered?(batch: Batch): void;
  random?: () => number;
}

/**
 * Sends batches one at a time, in order. Network errors, 408, 429 and 5xx are retried with
 * back-off, waiting at least what Retry-After asks (a rate limit, a busy or full server); the
 * batches wait in the bounded queue meanwhile. 413 replaces the events with a note saying what
 * was too big; any other 4xx is a refusal (campaign over, origin not allowed, limit reached,
 * session full) and stops sending.
 */
export class Sender {
  queue = new BatchQueue(QUEUE_BATCHES, QUEUE_BYTES);
  stopped = false;
  private inFlight: Batch | null = null;
  private waiting = false;
  private attempts = 0;
  private delivered = false;
  /** Ingest has answered at least once: a later silence is an outage, not a CORS refusal. */
  private reached = false;

  constructor(private deps: SenderDeps) {}

  add(batch: Batch): void {
    if (this.stopped) return;
    this.queue.push(batch);
    void this.prepare(batch); // pump awaits it (a failure is pump's)
    this.pump().catch(() => undefined);
  }

  /** Packing starts as a batch is queued, so its body is ready when its turn comes. */
  private prepare(batch: Batch): Promise<BodyInit> {
    const packing = this.deps.pack(batch).then((packed) => {
      if (batch.packing === packing) batch.packed = packed;
      return packed;
    });
    batch.packed = undefined;
    batch.packing = packing;
    return packing;
  }

  async pump(): Promise<void> {
    const batch = this.queue.items[0];
    if (!batch || this.inFlight || this.waiting || this.stopped) return;
    this.inFlight = batch;
    const body = await (batch.packing ?? this.prepare(batch));
    const { status, retryAfter = 0 } = await this.deps.post(body, false);
    this.inFlight = null;
    if (status !== 0) this.reached = true;
    if (status >= 200 && status < 300) {
      this.queue.remove(batch);
      this.attempts = 0;
      this.delivered = true;
      this.deps.onDelivered?.(batch);
    } else if (status === 413 && !batch.events[0].includes('"tooLarge"')) {
      // An event bigger than ingest accepts: keep the seq and say what was lost instead.
      batch.events = [note({ tooLarge: batch.bytes, events: batch.events.length }, eventTime(batch.events[0]))];
      this.queue.bytes += batch.events[0].length - batch.bytes;
      batch.bytes = batch.events[0].length;
      void this.prepare(batch); // the next pump awaits it
    } else if (status === 0 || status === 408 || status === 429 || status >= 500) {
      this.attempts++;
      if (!this.reached && this.attempts >= FIRST_CONTACT_TRIES) return this.stop(`ingest unreachable (status ${status})`, false);
      this.waiting = true;
      this.deps.later(
        () => {
          this.waiting = false;
          this.pump().catch(() => undefined);
        },
        Math.max(retryDelay(this.attempts, this.deps.random), Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS)),
      );
      return;
    } else {
      return this.stop(`refused by ingest (status ${status})`, true);
    }
    return this.pump();
  }

  stop(reason: string, refused: boolean): void {
    if (this.stopped) return;
    this.stopped = true;
    this.queue = new BatchQueue(0, 0);
    this.deps.onStop(reason, refused);
  }

  /**
   * The page is going away: hand batches to keepalive requests while their 64 KiB allowance
   * lasts (compressed bodies where packing finished, JSON made here and now for the rest); the
   * rest is returned for the tab's next page to send (ingest stores each seq once).
   * The batch in flight goes too: its ordinary request dies with the page, and when the tab is
   * closing there is no next page to send it (the last seconds of every visit were lost).
   */
  unload(size: (body: string) => number): Batch[] {
    if (this.stopped) return [];
    let allowance = UNLOAD_BATCH_BYTES;
    const rest: Batch[] = [];
    for (const batch of this.queue.items.slice()) {
      const body = batch.packed ?? this.deps.packNow(batch);
      const bytes = typeof body === 'string' ? size(body) : (body as Blob).size;
      if (bytes <= allowance) {
        allowance -= bytes;
        this.queue.remove(batch);
        void this.deps.post(body, true);
      } else {
        rest.push(batch);
      }
    }
    return rest;
  }
}
