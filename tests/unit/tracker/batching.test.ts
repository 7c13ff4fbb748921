import { describe, expect, it } from 'vitest';
import { splitEvents } from '../../../tracker/src/split.js';
import { retryDelay } from '../../../tracker/src/backoff.js';
import { BatchQueue } from '../../../tracker/src/queue.js';
import { batchBody, type Batch } from '../../../tracker/src/batch.js';

const event = (n: number, size = 100) => JSON.stringify({ type: 3, data: { pad: 'x'.repeat(size) }, timestamp: n });
const batch = (seq: number, bytes = 10): Batch => ({ sessionId: 'session-1', seq, events: [event(seq, bytes)], bytes });

describe('splitting batches', () => {
  it('keeps every event, in order, in runs whose JSON fits the cap', () => {
    const events = Array.from({ length: 50 }, (_, i) => event(i));
    const runs = splitEvents(events, 1000);
    expect(runs.flat()).toEqual(events);
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) expect(JSON.stringify(run.map((e) => JSON.parse(e))).length).toBeLessThanOrEqual(1000);
  });

  it('sends an event larger than the cap alone rather than dropping it', () => {
    const events = [event(1), event(2, 5000), event(3)];
    expect(splitEvents(events, 1000)).toEqual([[events[0]], [events[1]], [events[2]]]);
  });

  it('measures with the given size function (bytes, not characters, while unloading)', () => {
    const events = ['"ééééé"', '"ééééé"'];
    expect(splitEvents(events, 18)).toEqual([events]);
    expect(splitEvents(events, 18, (e) => new Blob([e]).size)).toEqual([[events[0]], [events[1]]]);
  });

  it('returns nothing for nothing', () => {
    expect(splitEvents([], 1000)).toEqual([]);
  });
});

describe('back-off', () => {
  it('doubles from 1 s and caps at 60 s', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, () => 1));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });

  it('jitters between half and the full delay', () => {
    expect(retryDelay(3, () => 0)).toBe(2000);
    expect(retryDelay(3, () => 0.5)).toBe(3000);
  });
});

describe('the bounded queue', () => {
  it('drops the oldest batches past its count and counts their events', () => {
    const queue = new BatchQueue(3, 1_000_000);
    for (let i = 0; i < 5; i++) queue.push(batch(i));
    expect(queue.items.map((b) => b.seq)).toEqual([2, 3, 4]);
    expect(queue.dropped).toBe(2);
  });

  it('drops the oldest past its byte budget but always keeps the newest batch', () => {
    const queue = new BatchQueue(100, 250);
    queue.push(batch(0, 100));
    queue.push(batch(1, 100));
    queue.push(batch(2, 100));
    expect(queue.items.map((b) => b.seq)).toEqual([1, 2]);
    expect(queue.bytes).toBe(200);
    queue.push(batch(3, 1000));
    expect(queue.items.map((b) => b.seq)).toEqual([3]);
    expect(queue.bytes).toBe(1000);
  });

  it('removes a delivered batch wherever it is', () => {
    const queue = new BatchQueue(10, 1000);
    const batches = [batch(0), batch(1), batch(2)];
    batches.forEach((b) => queue.push(b));
    queue.remove(batches[1]);
    queue.remove(batches[1]);
    expect(queue.items.map((b) => b.seq)).toEqual([0, 2]);
    expect(queue.bytes).toBe(20);
  });
});

describe('the batch body', () => {
  it('is the JSON the ingest expects, events not serialised twice', () => {
    const b: Batch = {
      ...batch(7),
      info: {
        userAgent: 'UA',
        language: 'en',
        timezone: 'UTC',
        hardwareConcurrency: 4,
        webdriver: false,
        cookiesEnabled: true,
        hasFocus: true,
        fullScreenEnabled: false,
      },
    };
    expect(JSON.parse(batchBody(b, b.events))).toEqual({ sessionId: 'session-1', seq: 7, info: b.info, events: [JSON.parse(b.events[0])] });
    expect(JSON.parse(batchBody(batch(8), []))).not.toHaveProperty('info');
  });
});
