// Turning a batch into a request body: masking, the visit's time zone and gzip. The same code
// runs in the pack worker (off the page's main thread) and, where a site's CSP forbids
// workers or the page is unloading, on the page itself.
import { batchBody, type BatchHead } from './batch.js';
import { maskEvent } from './privacy.js';

/** Messages to and from the pack worker. */
export interface PackRequest {
  id: number;
  head: BatchHead;
  events: string[];
}
export interface PackReply {
  id: number;
  body: BodyInit;
}

/**
 * An event's JSON with placeholders masked. Events are serialised on the page (handing the
 * objects to a worker measured no cheaper, and strings are cheap to post and to keep for
 * unload), so masking happens here, on their way out: every body and every stash goes through it.
 */
export function maskJson(json: string): string {
  if (!json.includes('"placeholder"')) return json;
  const event = JSON.parse(json) as { type: number; data: unknown };
  maskEvent(event);
  return JSON.stringify(event);
}

/**
 * The visit's time zone, filled in where the batch is packed: the first Intl call loads the
 * time-zone data, tens of milliseconds the page's main thread need not spend.
 */
function completeHead(head: BatchHead): BatchHead {
  if (head.info && !head.info.timezone) {
    try {
      head.info = { ...head.info, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || '' };
    } catch {
      // no Intl: the session has no time zone
    }
  }
  return head;
}

/** The body as JSON, at once: for the page's last moments (keepalive requests). */
export function packNow(head: BatchHead, events: string[]): string {
  return batchBody(completeHead(head), events.map(maskJson));
}

/** The body gzip where the browser has CompressionStream, else the JSON itself (ingest takes both). */
export async function pack(head: BatchHead, events: string[]): Promise<BodyInit> {
  const json = packNow(head, events);
  if (typeof CompressionStream === 'undefined') return json;
  try {
    return await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).blob();
  } catch {
    return json;
  }
}
