import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  ChunkFormatError,
  chunkLayout,
  decodeChunk,
  decodeEvents,
  encodeEvents,
  inflatedSize,
  receivedChunk,
  storableAsReceived,
} from '../../../server/storage/chunk-codec.js';
import { batchEventsSpan } from '../../../server/storage/scan-batch.js';
import type { ReplayEvent } from '../../../common/api-types.js';

const event = (timestamp: number, n: number): ReplayEvent => ({ type: 3, data: { n, text: 'naïve "events":[ ]} \u2028' }, timestamp });

describe('the chunk format', () => {
  it('round-trips events written as an events array, in time order (equal times as they came)', async () => {
    const events = [event(30, 1), event(10, 2), event(30, 3), event(20, 4)];
    const chunk = encodeEvents(events);
    const sorted = [events[1], events[3], events[0], events[2]];
    expect(await decodeEvents(chunk.data)).toEqual(sorted);
    expect((await decodeChunk(chunk.data)).toString('utf8')).toBe(JSON.stringify(sorted));
    expect(chunk).toMatchObject({ eventCount: 4, firstTs: 10, lastTs: 30, jsonBytes: Buffer.byteLength(JSON.stringify(sorted)) });
    expect(inflatedSize(chunk.data)).toBe(chunk.jsonBytes);
    expect(events.map((e) => e.timestamp)).toEqual([30, 10, 30, 20]); // the caller's array is left alone
  });

  it('round-trips a batch kept as received: the body is stored byte for byte, read back as its events array', async () => {
    const events = [event(1, 1), event(2, 2)];
    const json = Buffer.from(JSON.stringify({ sessionId: 'abcdefgh', seq: 3, info: { url: '"events":[]' }, events }));
    const span = batchEventsSpan(json);
    expect(storableAsReceived(json, span)).toBe(true);
    const body = gzipSync(json);
    const chunk = receivedChunk(body, span!, events);
    expect(chunk.data).toBe(body);
    expect(chunk).toMatchObject({ eventCount: 2, firstTs: 1, lastTs: 2, jsonBytes: Buffer.byteLength(JSON.stringify(events)) });
    expect((await decodeChunk(chunk.data)).toString('utf8')).toBe(JSON.stringify(events));
    expect(await decodeEvents(chunk.data)).toEqual(events);
    expect(chunkLayout(json)).toBe('batch as received');
  });

  it('takes a body as received only when it is an object with one events array and no raw line break', () => {
    const as = (text: string) => storableAsReceived(Buffer.from(text), batchEventsSpan(Buffer.from(text)));
    expect(as('{"seq":0,"events":[{"timestamp":1}]}')).toBe(true);
    expect(as('{"seq":0,\n"events":[{"timestamp":1}]}')).toBe(false);
    expect(as('{"seq":0,"events":[{"timestamp":1}],"events":[]}')).toBe(false);
    expect(as('{"seq":0}')).toBe(false);
    expect(as(' {"events":[]}')).toBe(false); // the first byte names the layout
  });

  it('refuses bytes that are not the format with an error that says what is wrong', async () => {
    await expect(decodeChunk(Buffer.from('[{"timestamp":1}]'))).rejects.toThrow(new ChunkFormatError('not gzip-compressed JSON (incorrect header check)'));
    await expect(decodeChunk(gzipSync('"text"'))).rejects.toThrow('Stored chunk: its JSON is neither an events array nor a batch');
    await expect(decodeChunk(gzipSync('{"seq":0}'))).rejects.toThrow('Stored chunk: a batch kept as received holds no single events array');
    await expect(decodeEvents(gzipSync('[{"timestamp":1},'))).rejects.toThrow(/^Stored chunk: its events are not valid JSON/);
    await expect(decodeChunk(gzipSync('[{"timestamp":1}]').subarray(0, 12))).rejects.toBeInstanceOf(ChunkFormatError);
  });
});
