import type { SessionInfo } from '../../src/api/types.js';

/** One numbered batch of a session; events are already JSON so sizes are known and cheap. */
export interface Batch {
  sessionId: string;
  seq: number;
  /** Sent until ingest has acknowledged a batch of this session. */
  info?: SessionInfo;
  events: string[];
  bytes: number;
}

/** The request body: {sessionId, seq, info?, events}, built without serialising events twice. */
export function batchBody(batch: Batch): string {
  const info = batch.info ? ',"info":' + JSON.stringify(batch.info) : '';
  return '{"sessionId":' + JSON.stringify(batch.sessionId) + ',"seq":' + batch.seq + info + ',"events":[' + batch.events.join(',') + ']}';
}

/** A custom rrweb event (type 5) carrying the tracker's own notes into the replay. */
export const note = (payload: Record<string, unknown>, timestamp = Date.now()): string =>
  JSON.stringify({ type: 5, data: { tag: 'tapedeck', payload }, timestamp });

/** An event's time, read from the end of its JSON (rrweb sets `timestamp` last) without parsing it. */
export const eventTime = (json: string): number => Number(/"timestamp":(\d+)\}$/.exec(json)?.[1]) || Date.now();
