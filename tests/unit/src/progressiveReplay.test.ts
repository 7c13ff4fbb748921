import { describe, expect, it } from 'vitest';
import { fetchReplay, watchEarlyReplay, type EarlyReplay } from '../../../src/api/replay.js';
import { createApiClient } from '../../../src/api/client.js';
import type { ReplayEvent } from '../../../common/api-types.js';

// Issue 13, item 10: a finished session's replay starts playing on its first page. The answer is
// read as it arrives; once the first full snapshot is in, the page hears of it (watchEarlyReplay)
// while the download goes on, and the rest reaches the player through `more`.

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

const head = (complete: boolean) => `{"init":${JSON.stringify(init)},"complete":${complete},"events":[`;
const list = (events: ReplayEvent[]) => events.map((e) => JSON.stringify(e)).join(',');

describe('opening a replay while it downloads', () => {
  it('announces the first page before the answer ends, then hands the rest to the player in order', async () => {
    const server = answerInPieces();
    const client = createApiClient({ fetch: async () => server.response });
    const heard: EarlyReplay[] = [];
    const stop = watchEarlyReplay('camp-p', 'sess-p', (early) => heard.push(early));
    const whole = fetchReplay('camp-p', 'sess-p', client);

    server.send(head(true) + list([meta, snapshot]));
    server.send(',');
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0].init).toEqual(init);
    expect(heard[0].events).toEqual([meta, snapshot]);

    // The player subscribes once it has drawn the first page; the rest then flows to it.
    const added: ReplayEvent[] = [];
    heard[0].more.subscribe((events) => added.push(...events));
    server.send(list(later.slice(0, 20)) + ',');
    server.send(list(later.slice(20)) + ']}');
    server.end();
    const answer = await whole;
    stop();
    expect(answer).toEqual({ init, complete: true, events: [meta, snapshot, ...later] });
    await expect.poll(() => added.length).toBe(later.length);
    expect(added).toEqual(later);
  });

  it('does not announce a session still recording (it is followed live instead), nor one without a full snapshot yet', async () => {
    const cases: [boolean, ReplayEvent[]][] = [
      [false, [meta, snapshot, ...later]],
      [true, [meta, ...later]],
    ];
    for (const [complete, events] of cases) {
      const server = answerInPieces();
      const heard: EarlyReplay[] = [];
      const stop = watchEarlyReplay('camp-q', 'sess-q', (early) => heard.push(early));
      const whole = fetchReplay('camp-q', 'sess-q', createApiClient({ fetch: async () => server.response }));
      server.send(head(complete) + list(events) + ']}');
      server.end();
      expect((await whole).events).toEqual(events);
      stop();
      expect(heard).toEqual([]);
    }
  });

  it('a page that opens after the download is over gets the whole answer, no early one', async () => {
    const server = answerInPieces();
    const whole = fetchReplay('camp-r', 'sess-r', createApiClient({ fetch: async () => server.response }));
    server.send(head(true) + list([meta, snapshot, ...later]) + ']}');
    server.end();
    await whole;
    const heard: EarlyReplay[] = [];
    watchEarlyReplay('camp-r', 'sess-r', (early) => heard.push(early))();
    expect(heard).toEqual([]);
  });
});
