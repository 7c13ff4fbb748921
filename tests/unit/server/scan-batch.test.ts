import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchEventsSpan } from '../../../server/storage/scan-batch.js';

/** The events array's text as the scan found it, or null. */
function found(text: string): string | null {
  const json = Buffer.from(text, 'utf8');
  const span = batchEventsSpan(json);
  return span && json.subarray(span.start, span.end).toString('utf8');
}

describe('the events of a batch stored as it arrived', () => {
  it('finds the top-level events array, whatever the other keys and the strings hold', () => {
    const events = [{ type: 2, data: { events: ['x'], text: '"events":[1] } ] \\' }, timestamp: 1 }];
    const info = { userAgent: 'a "quoted" events: [', url: 'https://x/?events=[]' };
    expect(found(JSON.stringify({ sessionId: 'abcdefgh', seq: 0, info, events }))).toBe(JSON.stringify(events));
    expect(found(JSON.stringify({ events, seq: 1 }))).toBe(JSON.stringify(events));
    expect(found('{ "seq" : 1 , "events" : [ {"timestamp":1} ] }')).toBe('[ {"timestamp":1} ]');
  });

  it('answers null where JSON.parse could read other events than the scan, or there are none', () => {
    for (const text of [
      '{"events":[{"a":1}],"events":[{"b":2}]}', // JSON.parse keeps the last
      '{"ev\\u0065nts":[{"b":2}],"events":[{"a":1}]}', // the same key, spelt with an escape
      '{"events":"[]"}',
      '{"events":{"0":1}}',
      '{"events":null}',
      '{"events":1}',
      '{"info":{"events":[1]}}',
      '[{"events":[1]}]',
      '{}',
    ]) {
      expect(found(text), text).toBeNull();
    }
  });

  it('agrees with JSON.parse on any batch object', () => {
    const key = fc.string({ maxLength: 8 }).filter((k) => k !== 'events' && k !== '__proto__');
    const batch = fc.tuple(fc.dictionary(key, fc.jsonValue(), { maxKeys: 4 }), fc.array(fc.jsonValue(), { maxLength: 5 }), fc.nat(4));
    fc.assert(
      fc.property(batch, ([others, events, at]) => {
        const entries = Object.entries(others);
        entries.splice(Math.min(at, entries.length), 0, ['events', events]);
        const text = JSON.stringify(Object.fromEntries(entries));
        const span = found(text);
        if (entries.some(([k]) => JSON.stringify(k).includes('\\'))) return; // may answer null: re-serialised at ingest
        expect(span).not.toBeNull();
        expect(JSON.parse(span as string)).toEqual((JSON.parse(text) as { events: unknown }).events);
      }),
      { numRuns: 1000 },
    );
  });
});
