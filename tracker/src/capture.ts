// Errors, console messages and failed requests, as rrweb custom events (common/captured.ts).
// Masked and trimmed here, before anything leaves the page; never bodies or headers. Written
// tightly: every byte counts against the tracker's weight budget.
import { record } from '@rrweb/record';
import { MESSAGE_MAX, STACK_MAX } from '../../common/captured.js';
import { maskText, requestUrl } from '../../common/scrub.js';

type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Text masked, then cut to `max` characters. */
const trim = (value: unknown, max = MESSAGE_MAX) => maskText(String(value ?? '')).slice(0, max);

/** Adds a custom event tagged 'tapedeck/' + tag to the recording (nothing while stopped). */
export const add = (tag: string, payload: object) => {
  try {
    record.addCustomEvent('tapedeck/' + tag, payload);
  } catch {
    // not recording (stopped): nothing to add to
  }
};

/** Starts capturing; `consoleOn` says whether the campaign wants console messages. */
export function capture(consoleOn: () => unknown): void {
  const w = window as Loose;
  const error = (message: unknown, source: string, stack: unknown) =>
    add('error', { message: trim(message), source: trim(source), stack: trim(stack, STACK_MAX) });
  // Failed (status 0) or answered 400 or more: method, URL without query or fragment (masked), status, time
  // (never negative: ingest refuses the whole batch for one, and a clock set back gives one).
  const request = (method: unknown, url: unknown, status: number, start: number) =>
    (!status || status > 399) &&
    add('request', {
      method: trim(method, 20).toUpperCase(),
      url: requestUrl(String(url)).slice(0, MESSAGE_MAX),
      status,
      durationMs: Math.max(0, Date.now() - start),
    });

  addEventListener('error', (e) => e.message && error(e.message, e.filename + ':' + e.lineno, e.error?.stack));
  addEventListener('unhandledrejection', ({ reason }) => error(reason?.message ?? reason, '', reason?.stack));
  for (const level of ['error', 'warn']) {
    const original = w.console[level];
    w.console[level] = function (this: unknown, ...args: unknown[]) {
      if (consoleOn()) add('console', { level, message: trim(args[0]) });
      return original.apply(this, args);
    };
  }
  const fetch = w.fetch;
  w.fetch = function (this: unknown, input: Loose, init?: Loose) {
    const start = Date.now();
    const method = init?.method || input?.method || 'GET';
    const url = input?.url || input;
    return fetch.apply(this, arguments).then(
      (response: Response) => (request(method, url, response.status, start), response),
      (failure: unknown) => {
        request(method, url, 0, start);
        throw failure;
      },
    );
  };
  const xhr = XMLHttpRequest.prototype as Loose;
  const { open, send } = xhr;
  xhr.open = function (this: Loose, method: string, url: string) {
    this._td = [method, url];
    return open.apply(this, arguments);
  };
  xhr.send = function (this: Loose) {
    const start = Date.now();
    const sent = this._td;
    if (sent) this.addEventListener('loadend', () => request(sent[0], sent[1], this.status, start));
    return send.apply(this, arguments);
  };
}
