import http from 'node:http';

/** One Server-Sent Events message as a browser's EventSource would see it. */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
  /** When it was read (Date.now()). */
  at: number;
}

/** A text/event-stream client over node:http (used by tests and the bench): it records everything it reads. */
export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of an answer that is not an event stream (e.g. a JSON error). */
  body: Promise<string>;
  messages: SseMessage[];
  comments: string[];
  retries: number[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The next message (counting from `from`, default: the first not yet waited for) that matches. */
  next(match?: (message: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const messages: SseMessage[] = [];
      const comments: string[] = [];
      const retries: number[] = [];
      const waiters = new Set<() => void>();
      const wake = () => {
        for (const waiter of [...waiters]) waiter();
      };
      let buffer = '';
      let text = '';
      let done = false;
      const streaming = (response.headers['content-type'] ?? '').startsWith('text/event-stream');
      response.setEncoding('utf8');
      response.on('data', (part: string) => {
        if (!streaming) {
          text += part;
          return;
        }
        buffer += part;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = { event: 'message', data: '', at: Date.now() };
          const data: string[] = [];
          let isMessage = false;
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === '') comments.push(value);
            else if (field === 'retry') retries.push(Number(value));
            else if (field === 'id') message.id = value;
            else if (field === 'event') message.event = value;
            else if (field === 'data') data.push(value);
            if (field === 'data') isMessage = true;
          }
          message.data = data.join('\n');
          if (isMessage) messages.push(message);
        }
        wake();
      });
      const ended = new Promise<void>((settle) => {
        const finish = () => {
          done = true;
          wake();
          settle();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      });
      const body = ended.then(() => text);
      let cursor = 0;
      const waitFor = (condition: () => boolean, timeoutMs = 10_000) =>
        new Promise<void>((ok, fail) => {
          const check = () => {
            if (condition()) {
              cleanup();
              ok();
            } else if (done) {
              cleanup();
              fail(new Error('the stream ended first'));
            }
          };
          const timer = setTimeout(() => {
            cleanup();
            fail(new Error(`nothing came in ${timeoutMs} ms (messages: ${JSON.stringify(messages.map((m) => [m.event, m.id]))})`));
          }, timeoutMs);
          const cleanup = () => {
            clearTimeout(timer);
            waiters.delete(check);
          };
          waiters.add(check);
          check();
        });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body,
        messages,
        comments,
        retries,
        ended,
        async next(match = () => true, timeoutMs = 10_000) {
          let found: SseMessage | undefined;
          await waitFor(() => {
            while (cursor < messages.length) {
              const message = messages[cursor++];
              if (match(message)) {
                found = message;
                return true;
              }
            }
            return false;
          }, timeoutMs);
          return found as SseMessage;
        },
        waitFor,
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}
