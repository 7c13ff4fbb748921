import type { SessionInfo } from '../../common/api-types.js';

/** What a batch is besides its events: which session, which number, the visit's details once. */
export interface BatchHead {
  sessionId: string;
  seq: number;
  /** Sent until ingest has acknowledged a batch of this session. */
  info?: SessionInfo;
}

/** One numbered batch of a session; events are already JSON so sizes are known and cheap. */
export interface Batch extends BatchHead {
  events: string[];
  bytes: number;
  /** The request body being made (masked, compressed) and, once made, the body itself. */
  packing?: Promise<BodyInit>;
  packed?: BodyInit;
}

/** The request body: {sessionId, seq, info?, events}, built without serialising events twice. */
export function batchBody(head: BatchHead, events: string[]): string {
  const info = head.info ? ',"info":' + JSON.stringify(head.info) : '';
  return '{"sessionId":' + JSON.stringify(head.sessionId) + ',"seq":' + head.seq + info + ',"events":[' + events.join(',') + ']}';
}

/**
 * A custom rrweb event (type 5) carrying the tracker's own notes into the replay. The tag is
 * common/captured.ts's NOTE_TAG written out (an import costs every recorded page bytes); the
 * sender's test holds the two together.
 */
export const note = (payload: Record<string, unknown>, timestamp = Date.now()): string =>
  JSON.stringify({ type: 5, data: { tag: 'tapedeck', payload }, timestamp });

/** An event's time, read from the end of its JSON (rrweb sets `timestamp` last) without parsing it. */
export const eventTime = (json: string): number => Number(/"timestamp":(\d+)\}$/.exec(json)?.[1]) || Date.now();
