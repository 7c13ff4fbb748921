import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventSpans } from '../../../server/storage/scan-events.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
/** Each event's text and timestamp as the scan found them. */
function found(text: string) {
  const json = bytes(text);
  const spans = eventSpans(json);
  if (!spans) return null;
  return Array.from(spans.times, (time, i) => ({ text: json.subarray(spans.starts[i], spans.ends[i]).toString('utf8'), time }));
}

describe('finding each event of a stored chunk without parsing it', () => {
  it('finds every event and its own timestamp, whatever its strings and nesting hold', () => {
    const events = [
      { type: 3, data: { text: 'a "quoted" } ] { [ \\ string', timestamp: 1 }, timestamp: 20 },
      { timestamp: 30, type: 2, data: { value: 'timestamp', nested: [{ timestamp: 99 }], 'naïve “x” \u2028': '</script>' } },
      { type: 4, data: {}, timestamp: 1.7e12, delay: 5 },
    ];
    expect(found(JSON.stringify(events))).toEqual(events.map((e) => ({ text: JSON.stringify(e), time: e.timestamp })));
    expect(found(' [ {"type":4,"data":{},"timestamp" : 1}, {"type":2,"data":{},"timestamp":2} ] ')).toEqual([
      { text: '{"type":4,"data":{},"timestamp" : 1}', time: 1 },
      { text: '{"type":2,"data":{},"timestamp":2}', time: 2 },
    ]);
    expect(found('[]')).toEqual([]);
  });

  it('answers null for anything but an array of events with numeric timestamps', () => {
    for (const text of ['{}', '[1,2]', '[{"timestamp":"1"}]', '[{"type":1}]', '[{"timestamp":1}', '[{"timestamp":1}] x', '']) {
      expect(found(text), text).toBeNull();
    }
  });

  it('agrees with JSON.parse on any array of events', () => {
    const event = fc.record({ type: fc.integer({ min: 0, max: 7 }), data: fc.jsonValue(), timestamp: fc.integer({ min: 0, max: 2e12 }) });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 20 }), (events) => {
        const text = JSON.stringify(events);
        const parsed = JSON.parse(text) as typeof events;
        expect(found(text)).toEqual(parsed.map((e) => ({ text: JSON.stringify(e), time: e.timestamp })));
      }),
      { numRuns: 300 },
    );
  });
});
