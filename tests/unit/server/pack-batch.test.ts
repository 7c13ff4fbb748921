import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packBatch } from '../../../server/ingest/pack.js';
import { scanBatch } from '../../../server/storage/scan-batch.js';
import { eventsJson } from '../../../server/storage/chunk-codec.js';

describe('packBatch', () => {
  it('never throws: any bytes give a packed batch or a 4xx with a reason', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          fc.json().map((t) => new TextEncoder().encode(t)),
          fc.uint8Array({ maxLength: 400 }).map((b) => zlib.gzipSync(b)),
        ),
        (bytes) => {
          const outcome = packBatch(bytes, Date.now());
          if (!outcome.ok) {
            expect(outcome.status).toBeGreaterThanOrEqual(400);
            expect(outcome.status).toBeLessThan(500);
            expect(outcome.error.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('sorts events by time, stably, and derives the batch facts', () => {
    const now = Date.now();
    const events = [
      { type: 3, data: { source: 2, n: 'b' }, timestamp: now - 5 },
      { type: 2, data: { n: 'a' }, timestamp: now - 10 },
      { type: 3, data: { source: 5, n: 'c' }, timestamp: now - 5 },
    ];
    const outcome = packBatch(Buffer.from(JSON.stringify({ sessionId: 'abcdefgh', seq: 1, events })), now);
    if (!outcome.ok) throw new Error(outcome.error);
    const stored = JSON.parse(zlib.gunzipSync(outcome.batch.chunk).toString()) as { data: { n: string } }[];
    expect(stored.map((e) => e.data.n)).toEqual(['a', 'b', 'c']);
    expect(outcome.batch).toMatchObject({ eventCount: 3, firstTs: now - 10, lastTs: now - 5, humanInput: true, pageLoads: 1, info: null });
    expect(outcome.batch.jsonBytes).toBe(Buffer.byteLength(JSON.stringify(stored)));
  });

  describe('a gzip body stored as it arrived', () => {
    const now = Date.now();
    const events = [
      { type: 4, data: { href: 'https://shop.example.com/' }, timestamp: now - 30 },
      { type: 2, data: { node: {} }, timestamp: now - 20 },
      { type: 3, data: { source: 2 }, timestamp: now - 10 },
    ];
    const batch = {
      sessionId: 'abcdefgh',
      seq: 0,
      info: {
        userAgent: 'UA',
        language: 'en',
        timezone: 'UTC',
        hardwareConcurrency: 4,
        webdriver: false,
        cookiesEnabled: true,
        hasFocus: true,
        fullScreenEnabled: true,
      },
      events,
    };
    const gzip = (value: unknown, text = JSON.stringify(value)) => zlib.gzipSync(text);
    const packed = (raw: Uint8Array, options?: { captureConsole: boolean }) => {
      const outcome = packBatch(raw, now, options);
      if (!outcome.ok) throw new Error(outcome.error);
      return outcome.batch;
    };
    const storedEvents = (chunk: Uint8Array) => JSON.parse(eventsJson(zlib.gunzipSync(chunk)).toString()) as unknown[];

    it("keeps a tracker's batch byte for byte, and its events read back as sent", () => {
      const raw = gzip(batch);
      const stored = packed(raw);
      expect(Buffer.from(stored.chunk).equals(raw)).toBe(true);
      expect(storedEvents(stored.chunk)).toEqual(events);
      expect(stored).toMatchObject({ eventCount: 3, firstTs: now - 30, lastTs: now - 10, jsonBytes: Buffer.byteLength(JSON.stringify(events)) });
    });

    it('stores the events array, serialised afresh, whenever the body holds more or other than was checked', () => {
      const error = { type: 5, data: { tag: 'tapedeck/error', payload: { message: 'mail me at a@b.com', source: 's', stack: '' } }, timestamp: now - 5 };
      const consoleMessage = { type: 5, data: { tag: 'tapedeck/console', payload: { level: 'warn', message: 'w' } }, timestamp: now - 5 };
      const text = JSON.stringify(batch);
      const cases: [string, Uint8Array, { captureConsole: boolean }?][] = [
        ['events out of time order', gzip({ ...batch, events: [events[1], events[0], events[2]] })],
        ['a payload masked here', gzip({ ...batch, events: [...events, error] })],
        ['console messages dropped here', gzip({ ...batch, events: [...events, consoleMessage] }), { captureConsole: false }],
        ['a key of its own', gzip({ ...batch, extra: 'x'.repeat(100) })],
        ['a key of its own in info', gzip({ ...batch, info: { ...batch.info, extra: 1 } })],
        ['line breaks', gzip(batch, JSON.stringify(batch, null, 1))],
        ['two gzip members', Buffer.concat([zlib.gzipSync(text.slice(0, 10)), zlib.gzipSync(text.slice(10))])],
        ['an events key spelt with an escape', gzip(batch, text.replace('"events"', '"ev\\u0065nts"'))],
        ['plain JSON', Buffer.from(text)],
      ];
      for (const [what, raw, options] of cases) {
        const stored = packed(raw, options);
        const inflated = zlib.gunzipSync(stored.chunk);
        expect(inflated[0], what).toBe(0x5b); // '[': the events array itself
        const kept = JSON.parse(inflated.toString()) as { timestamp: number }[];
        expect(
          kept.map((e) => e.timestamp),
          what,
        ).toEqual([...kept.map((e) => e.timestamp)].sort((a, b) => a - b));
        expect(JSON.stringify(kept), what).not.toContain('a@b.com');
        expect(stored.jsonBytes, what).toBe(inflated.length);
      }
    });
  });

  it('measures nesting outside strings only', () => {
    const deeper = (text: string, limit: number) => scanBatch(Buffer.from(text), limit).deeperThan;
    expect(deeper('[[[1]]]', 3)).toBe(false);
    expect(deeper('[[[[1]]]]', 3)).toBe(true);
    expect(deeper('["[[[[[[", "\\"[[[["]', 1)).toBe(false);
    // Past the limit wherever it is, events array or not.
    expect(deeper('{"events":"x","info":{"a":[[[1]]]}}', 4)).toBe(true);
    expect(deeper('{"events":"x","info":{"a":[[[1]]]}}', 5)).toBe(false);
  });

  it('refuses a body nesting past the limit with its reason, before parsing it', () => {
    const deep = `{"sessionId":"abcdefgh","seq":0,"events":[{"type":3,"timestamp":1,"data":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
    for (const raw of [Buffer.from(deep), zlib.gzipSync(deep)]) {
      expect(packBatch(raw, Date.now())).toMatchObject({ ok: false, status: 400, error: expect.stringMatching(/^The batch nests deeper than \d+ levels$/) });
    }
  });
});
