import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, packBatch } from '../../../server/ingest/pack-batch.js';

describe('packBatch', () => {
  it('never throws: any bytes give a packed batch or a 4xx with a reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 400 }), fc.json().map((t) => new TextEncoder().encode(t)), fc.uint8Array({ maxLength: 400 }).map((b) => zlib.gzipSync(b))), (bytes) => {
        const outcome = packBatch(bytes, Date.now());
        if (!outcome.ok) {
          expect(outcome.status).toBeGreaterThanOrEqual(400);
          expect(outcome.status).toBeLessThan(500);
          expect(outcome.error.length).toBeGreaterThan(0);
        }
      }),
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

  it('measures nesting outside strings only', () => {
    expect(nestsDeeperThan('[[[1]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(nestsDeeperThan('["[[[[[[", "\\"[[[["]', 1)).toBe(false);
  });
});
