import { describe, expect, it } from 'vitest';
import { fetchReplay } from '../../../src/api/replay.js';
import { whenDownloaded, whenReached } from '../../../src/replay/replaySource.js';
import { createApiClient } from '../../../src/api/client.js';
import type { ReplayEvent } from '../../../common/api-types.js';

// Issue 13, item 10: a finished session's replay starts playing on its first page. The answer is
// read as it arrives into the session's replay source; once the first full snapshot is in, the
// source is handed over while the download goes on appending the rest to it.

const start = 1_700_000_000_000;
const meta: ReplayEvent = { type: 4, data: { href: 'https://shop.example/', width: 800, height: 600 }, timestamp: start };
const snapshot: ReplayEvent = { type: 2, data: { node: { type: 0, childNodes: [] } }, timestamp: start + 1 };
const later = Array.from({ length: 50 }, (_, i): ReplayEvent => ({ type: 3, data: { source: 1, positions: [{ x: i }] }, timestamp: start + 10 + i }));
const init = { language: 'en', timezone: 'UTC' };

/** A server answer the test sends piece by piece. */
function answerInPieces() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const head = (complete: boolean) => `{"init":${JSON.stringify(init)},"complete":${complete},"live":${!complete},"events":[`;
const list = (events: ReplayEvent[]) => events.map((e) => JSON.stringify(e)).join(',');

describe('opening a replay while it downloads', () => {
  it('hands over the source on its first page before the answer ends, then appends the rest in order', async () => {
    const server = answerInPieces();
    const client = createApiClient({ fetch: async () => server.response });
    const whole = fetchReplay('camp-p', 'sess-p', client);

    server.send(head(true) + list([meta, snapshot]));
    server.send(',');
    const source = await whole;
    const first = source.getSnapshot();
    expect(first.init).toEqual(init);
    expect(first.events).toEqual([meta, snapshot]);
    expect(first.downloaded).toBe(false);

    // The player follows the source once it has drawn the first page; the rest then flows to it.
    const added: ReplayEvent[] = [];
    source.follow(first.events.length, (events) => added.push(...events));
    source.markDrawn();
    server.send(list(later.slice(0, 20)) + ',');
    server.send(list(later.slice(20)) + ']}');
    server.end();
    const done = await whenDownloaded(source);
    expect(done).toMatchObject({ init, complete: true, live: false, error: null, events: [meta, snapshot, ...later] });
    expect(added).toEqual(later);
  });

  it('hands over a session still recording (it is followed live then), or one without a full snapshot yet, only once read whole', async () => {
    const cases: [boolean, ReplayEvent[]][] = [
      [false, [meta, snapshot, ...later]],
      [true, [meta, ...later]],
    ];
    for (const [complete, events] of cases) {
      const server = answerInPieces();
      const whole = fetchReplay('camp-q', 'sess-q', createApiClient({ fetch: async () => server.response }));
      // The snapshot as it is when the source is handed over.
      const handed = whole.then((source) => source.getSnapshot());
      server.send(head(complete) + list(events.slice(0, 2)) + ',');
      server.send(list(events.slice(2)) + ']}');
      server.end();
      expect(await handed).toMatchObject({ init, events, downloaded: true, live: !complete });
    }
  });

  it('is live only when the server says the visitor is recording now, not merely that the session is not complete (issue 24, item 3)', async () => {
    for (const [live, expected] of [
      [true, true],
      [false, false],
      [undefined, false],
    ] as const) {
      const answer = JSON.stringify({ init, complete: false, ...(live === undefined ? {} : { live }), events: [meta, snapshot] });
      const source = await fetchReplay('camp-l', 'sess-l', createApiClient({ fetch: async () => new Response(answer, { status: 200 }) }));
      expect((await whenDownloaded(source)).live).toBe(expected);
    }
  });

  it('a moment is reached once an event after it has arrived, or the download is over, not the whole recording', async () => {
    const server = answerInPieces();
    const whole = fetchReplay('camp-m', 'sess-m', createApiClient({ fetch: async () => server.response }));
    server.send(head(true) + list([meta, snapshot]) + ',');
    const source = await whole;
    source.markDrawn();
    let reached: ReplayEvent[] | null = null;
    const moment = later[20].timestamp;
    void whenReached(source, moment).then((held) => (reached = held.events));
    server.send(list(later.slice(0, 21)) + ',');
    await expect.poll(() => source.getSnapshot().events.length).toBe(23);
    expect(reached).toBeNull();
    server.send(list(later.slice(21, 30)) + ',');
    await expect.poll(() => reached).toEqual([meta, snapshot, ...later.slice(0, 30)]);
    expect(source.getSnapshot().downloaded).toBe(false);
    server.send(list(later.slice(30)) + ']}');
    server.end();
    // A moment past the recording's end: its download's end.
    expect((await whenReached(source, later[49].timestamp + 1000)).downloaded).toBe(true);
  });

  it('a download that breaks off after the player started keeps what came and says what failed', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const whole = fetchReplay('camp-r', 'sess-r', createApiClient({ fetch: async () => new Response(body, { status: 200 }) }));
    controller.enqueue(new TextEncoder().encode(head(true) + list([meta, snapshot]) + ','));
    const source = await whole;
    source.markDrawn();
    controller.error(new Error('connection reset'));
    const done = await whenDownloaded(source);
    expect(done.events).toEqual([meta, snapshot]);
    expect(String(done.error)).toContain('connection reset');
  });
});
