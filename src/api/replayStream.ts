import type { ReplayEvent } from '../../common/api-types.js';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../../common/json-chars.js';

// A replay answer is one JSON object whose "events" array holds nearly all of its bytes. Read as
// it arrives, the events come out in batches (each one a JSON.parse of whole events), so the
// player can start on the first page while the rest is still downloading.

const EVENTS_KEY = /"events"\s*:\s*$/;

/** Splits the answer's text into the text around the events array and batches of whole events. */
export class ReplayTextSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private phase: 'head' | 'events' | 'tail' = 'head';
  /** The answer without its events: the head (`{...,"events":[`), then the tail (`]}`). */
  private outside = '';
  /** Text of the events array not yet handed on (it may end inside an event). */
  private pending = '';

  constructor(private readonly onEvents: (events: ReplayEvent[]) => void) {}

  /** Takes the next piece of text; hands on every event it completes. */
  push(text: string): void {
    const scanned = this.phase === 'events' ? this.pending.length : 0;
    const buffer = this.phase === 'events' ? this.pending + text : text;
    let from = 0; // the first character not yet handed on (events) or kept (head, tail)
    let cut = -1; // just after the last event that closed
    for (let i = scanned; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.depth++;
        if (this.phase === 'head' && c === OPEN_ARRAY && this.depth === 2 && EVENTS_KEY.test(this.outside + buffer.slice(from, i))) {
          this.outside += buffer.slice(from, i + 1);
          this.phase = 'events';
          from = i + 1;
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth--;
        if (this.phase !== 'events') continue;
        if (this.depth === 2 && c === CLOSE_OBJECT) cut = i + 1;
        else if (this.depth === 1 && c === CLOSE_ARRAY) {
          this.emit(buffer.slice(from, i));
          this.phase = 'tail';
          from = i;
        }
      }
    }
    if (this.phase === 'events') {
      if (cut > from) this.emit(buffer.slice(from, cut));
      this.pending = buffer.slice(Math.max(from, cut));
    } else {
      this.pending = '';
      this.outside += buffer.slice(from);
    }
  }

  private emit(text: string): void {
    const events = text.replace(/^[\s,]+/, '');
    if (events) this.onEvents(JSON.parse(`[${events}]`) as ReplayEvent[]);
  }

  /** The fields that came before the events array (all of them, in our answers). */
  head(): Record<string, unknown> {
    try {
      return JSON.parse(this.phase === 'head' ? '{}' : `${this.outside.slice(0, this.outside.lastIndexOf('['))}[]}`) as Record<string, unknown>;
    } catch {
      return {};
    }
  }

  /** The answer's other fields (its events array left empty); throws on a cut-off or broken answer. */
  finish(): Record<string, unknown> {
    if (this.phase !== 'tail' || this.depth !== 0) throw new SyntaxError('The replay answer ended early');
    return JSON.parse(this.outside) as Record<string, unknown>;
  }
}

/**
 * Reads a replay answer's body as it arrives. `onEvents` gets each batch of events in order
 * (with the fields that came before the events: the head); the result is the whole answer.
 */
export async function readReplayBody<T extends { events: ReplayEvent[] }>(
  body: ReadableStream<Uint8Array>,
  onEvents: (events: ReplayEvent[], head: Record<string, unknown>) => Promise<void> | void,
): Promise<T> {
  const events: ReplayEvent[] = [];
  let head: Record<string, unknown> | null = null;
  // onEvents may ask for a pause (the player drawing its first frame): the bytes that come
  // meanwhile are only collected, and read once it is over.
  let pause: Promise<void> | null = null;
  const splitter: ReplayTextSplitter = new ReplayTextSplitter((batch) => {
    for (const event of batch) events.push(event);
    head ??= splitter.head();
    const asked = onEvents(batch, head);
    if (asked) pause = asked.finally(() => (pause = null));
  });
  const decoder = new TextDecoder();
  const download = collect(body);
  for (;;) {
    if (pause) await pause;
    const piece = await download.next();
    if (piece === null) break;
    splitter.push(decoder.decode(piece, { stream: true }));
    // Reading is cut into short tasks: the page (the player above all) stays responsive.
    if (performance.now() - download.since > SLICE_MS) await download.breathe();
  }
  splitter.push(decoder.decode());
  return { ...splitter.finish(), events } as T;
}

/** Longest stretch of reading before the page gets the main thread back. */
const SLICE_MS = 30;

/** Reads the body as fast as it comes (whether or not its pieces are taken yet). */
function collect(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const waiting: Uint8Array[] = [];
  let ended = false;
  let failure: unknown = null;
  let wake = () => {};
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        waiting.push(value);
        wake();
      }
    } catch (error) {
      failure = error ?? new Error('The replay download failed');
    }
    ended = true;
    wake();
  })();
  const state = {
    since: performance.now(),
    /** The next piece, or null at the end; throws what the download threw. */
    async next(): Promise<Uint8Array | null> {
      while (!waiting.length && !ended) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      return waiting.shift() ?? null;
    },
    async breathe(): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, 0));
      state.since = performance.now();
    },
  };
  return state;
}
