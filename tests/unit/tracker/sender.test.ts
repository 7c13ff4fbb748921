import { describe, expect, it } from 'vitest';
import { Sender, type Answer } from '../../../tracker/src/sender.js';
import type { Batch } from '../../../tracker/src/batch.js';
import { packNow } from '../../../tracker/src/pack.js';
import { NOTE_TAG } from '../../../common/captured.js';

/** Packing as the recorder does it, without compression so the test can read the bodies. */
const packing = { pack: (b: Batch) => Promise.resolve(packNow(b, b.events)), packNow: (b: Batch) => packNow(b, b.events) };

const batch = (seq: number, events = ['{"type":3,"data":{},"timestamp":1}']): Batch => ({ sessionId: 'session-1', seq, events, bytes: events.join().length });

/** A sender wired to a scripted ingest: answers are taken in order, timers run when asked. */
function harness(answers: (number | Answer)[]) {
  const sent: { seq: number; keepalive: boolean; events: unknown[] }[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const stops: string[] = [];
  const delivered: number[] = [];
  const sender = new Sender({
    ...packing,
    async post(body, keepalive) {
      const parsed = JSON.parse(body as string) as { seq: number; events: unknown[] };
      sent.push({ seq: parsed.seq, keepalive, events: parsed.events });
      const answer = keepalive ? 200 : (answers.shift() ?? 200);
      return typeof answer === 'number' ? { status: answer } : answer;
    },
    later: (run, ms) => timers.push({ run, ms }),
    onStop: (reason, refused) => stops.push(`${reason}${refused ? ' [refused]' : ''}`),
    onDelivered: (b) => delivered.push(b.seq),
    random: () => 1,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { sender, sent, timers, stops, delivered, settle };
}

describe('the sender', () => {
  it('sends batches one at a time, in seq order', async () => {
    const h = harness([]);
    [0, 1, 2].forEach((seq) => h.sender.add(batch(seq)));
    await h.settle();
    expect(h.sent.map((s) => s.seq)).toEqual([0, 1, 2]);
    expect(h.delivered).toEqual([0, 1, 2]);
    expect(h.sender.queue.items).toEqual([]);
  });

  it('retries network errors and 5xx with growing back-off, then delivers', async () => {
    const h = harness([200, 0, 503, 429]);
    h.sender.add(batch(0));
    await h.settle();
    h.sender.add(batch(1));
    await h.settle();
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.sender.add(batch(2)); // waiting out the back-off: nothing jumps the queue
    await h.settle();
    expect(h.sent.map((s) => s.seq)).toEqual([0, 1]);
    h.timers.shift()?.run();
    await h.settle();
    h.timers.shift()?.run();
    await h.settle();
    expect(h.timers.map((t) => t.ms)).toEqual([4000]);
    h.timers.shift()?.run();
    await h.settle();
    expect(h.sent.map((s) => s.seq)).toEqual([0, 1, 1, 1, 1, 2]);
    expect(h.delivered).toEqual([0, 1, 2]);
    expect(h.stops).toEqual([]);
  });

  it('stops for the page after a refusal and drops what is queued', async () => {
    const h = harness([403]);
    h.sender.add(batch(0));
    h.sender.add(batch(1));
    await h.settle();
    expect(h.stops).toEqual(['refused by ingest (status 403) [refused]']);
    h.sender.add(batch(2));
    await h.settle();
    expect(h.sent.map((s) => s.seq)).toEqual([0]);
    expect(h.sender.queue.items).toEqual([]);
  });

  it('gives up on a page that never reached ingest (a CORS refusal looks like a network error)', async () => {
    const h = harness([0, 0, 0, 0]);
    h.sender.add(batch(0));
    for (let i = 0; i < 3; i++) {
      await h.settle();
      h.timers.shift()?.run();
    }
    await h.settle();
    expect(h.sent).toHaveLength(4);
    expect(h.stops).toEqual(['ingest unreachable (status 0)']);
  });

  it('waits as long as Retry-After asks on 429 and 503, keeping the batches, and never gives up on a server that answered', async () => {
    const h = harness([{ status: 429, retryAfter: 30 }, { status: 503, retryAfter: 5 }, { status: 429, retryAfter: 0 }, { status: 429 }, 200]);
    h.sender.add(batch(0));
    h.sender.add(batch(1));
    for (let i = 0; i < 4; i++) {
      await h.settle();
      h.timers.shift()?.run();
    }
    await h.settle();
    // Back-off (1 s doubling, with random() = 1) or Retry-After, whichever is longer.
    expect(h.sent.map((s) => s.seq)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(h.delivered).toEqual([0, 1]);
    expect(h.stops).toEqual([]);
  });

  it('waits what Retry-After asks, up to 10 minutes', async () => {
    const h = harness([
      { status: 429, retryAfter: 30 },
      { status: 503, retryAfter: 5 },
      { status: 429, retryAfter: 700 },
    ]);
    h.sender.add(batch(0));
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await h.settle();
      waits.push(h.timers[0].ms);
      h.timers.shift()?.run();
    }
    expect(waits).toEqual([30_000, 5_000, 600_000]);
  });

  it('replaces a batch ingest finds too large by a note with the same seq', async () => {
    const h = harness([413]);
    h.sender.add(batch(5, ['{"type":2,"data":{"huge":true},"timestamp":1700000000123}']));
    await h.settle();
    expect(h.sent.map((s) => s.seq)).toEqual([5, 5]);
    expect(h.sent[1].events).toEqual([{ type: 5, data: { tag: NOTE_TAG, payload: { tooLarge: 57, events: 1 } }, timestamp: 1700000000123 }]);
    expect(h.delivered).toEqual([5]);
  });

  it('hands queued batches to keepalive requests on unload within 64 KiB and returns the rest', async () => {
    const h = harness([]);
    const big = batch(1, [JSON.stringify({ type: 3, data: { pad: 'x'.repeat(70_000) }, timestamp: 1 })]);
    h.sender.queue.push(batch(0));
    h.sender.queue.push(big);
    h.sender.queue.push(batch(2));
    const rest = h.sender.unload((body) => body.length);
    expect(rest).toEqual([big]);
    expect(h.sent.map((s) => [s.seq, s.keepalive])).toEqual([
      [0, true],
      [2, true],
    ]);
  });

  it('hands compressed bodies to keepalive requests as they are, counting their bytes', async () => {
    const posted: { body: BodyInit; keepalive: boolean }[] = [];
    const sender = new Sender({
      pack: async () => new Blob([new Uint8Array(40_000)]),
      packNow: () => {
        throw new Error('a packed batch is not packed again');
      },
      post: (body, keepalive) => {
        posted.push({ body, keepalive });
        return new Promise<Answer>(() => undefined); // the ordinary request never answers
      },
      later: () => undefined,
      onStop: () => undefined,
    });
    [0, 1].forEach((seq) => sender.add(batch(seq)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // 40,000 bytes each: the first fits the 60 KiB allowance, the second is kept for the next page.
    const rest = sender.unload((body) => body.length);
    expect(rest.map((b) => b.seq)).toEqual([1]);
    expect(posted.map((p) => [(p.body as Blob).size, p.keepalive])).toEqual([
      [40_000, false],
      [40_000, true],
    ]);
  });

  it('hands the batch in flight to a keepalive request on unload too (the tab may be closing)', async () => {
    let answer!: (answer: Answer) => void;
    const sent: [number, boolean][] = [];
    const sender = new Sender({
      ...packing,
      post(body, keepalive) {
        sent.push([(JSON.parse(body as string) as { seq: number }).seq, keepalive]);
        return keepalive ? Promise.resolve({ status: 200 }) : new Promise<Answer>((resolve) => (answer = resolve));
      },
      later: () => undefined,
      onStop: () => undefined,
    });
    sender.add(batch(0));
    sender.add(batch(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([[0, false]]);
    expect(sender.unload((body) => body.length)).toEqual([]);
    expect(sent).toEqual([
      [0, false],
      [0, true],
      [1, true],
    ]);
    // The page survived after all (back/forward cache): the ordinary answer still settles cleanly.
    answer({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sender.queue.items).toEqual([]);
  });
});
