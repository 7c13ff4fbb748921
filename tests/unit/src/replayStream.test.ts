import { describe, expect, it } from 'vitest';
import { readReplayBody, ReplayTextSplitter } from '../../../src/api/replayStream.js';
import type { ReplayEvent, ReplayResponse } from '../../../common/api-types.js';

// The replay answer read as it arrives: every event once, in order, whatever the piece
// boundaries (inside strings, escapes, nested objects and arrays), and the other fields intact.

const events: ReplayEvent[] = [
  { type: 4, data: { href: 'https://shop.example/a?x=[1]', width: 1024, height: 768 }, timestamp: 1 },
  { type: 2, data: { node: { tag: 'div', text: 'braces } { and ] [ in "quotes" \\ back\\slash', children: [{ a: [1, 2, { b: '}' }] }] } }, timestamp: 2 },
  { type: 3, data: { source: 2, text: 'ü — é 😀' }, timestamp: 3 },
  { type: 3, data: { source: 1, positions: [] }, timestamp: 4 },
];
const answer = { init: { language: 'en', botReason: null, nested: { events: [9] } }, complete: true, events };
const text = JSON.stringify(answer);

function streamOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

/** The answer's bytes cut every `size` bytes (so multi-byte characters are cut too). */
function cut(size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.slice(i, i + size));
  return pieces;
}

describe('reading a replay answer as it arrives', () => {
  it.each([1, 2, 3, 7, 64, 100_000])('gives every event once, in order, with pieces of %i bytes', async (size) => {
    const batches: ReplayEvent[][] = [];
    const heads: unknown[] = [];
    const read = await readReplayBody<ReplayResponse>(streamOf(cut(size)), (batch, head) => {
      batches.push(batch);
      heads.push(head);
    });
    expect(read).toEqual(answer);
    expect(batches.flat()).toEqual(events);
    // The fields before the events are known with the first batch.
    expect(heads[0]).toEqual({ init: answer.init, complete: true, events: [] });
  });

  it('hands events on as soon as they are whole, before the answer ends', () => {
    const got: number[] = [];
    const splitter = new ReplayTextSplitter((batch) => got.push(...batch.map((e) => e.timestamp)));
    const secondEnds = text.indexOf('"timestamp":2}') + '"timestamp":2}'.length;
    splitter.push(text.slice(0, secondEnds - 1));
    expect(got).toEqual([1]);
    splitter.push(text.slice(secondEnds - 1, secondEnds));
    expect(got).toEqual([1, 2]);
    splitter.push(text.slice(secondEnds));
    expect(got).toEqual([1, 2, 3, 4]);
    expect(splitter.finish()).toEqual({ ...answer, events: [] });
  });

  it('an answer cut off inside the events is an error, not a shorter replay', async () => {
    const whole = cut(16);
    await expect(readReplayBody(streamOf(whole.slice(0, whole.length - 3)), () => undefined)).rejects.toThrow('The replay answer ended early');
  });

  it('reads an answer with no events', async () => {
    const empty = new TextEncoder().encode(JSON.stringify({ init: {}, complete: false, events: [] }));
    const batches: ReplayEvent[][] = [];
    expect(await readReplayBody(streamOf([empty]), (batch) => void batches.push(batch))).toEqual({ init: {}, complete: false, events: [] });
    expect(batches).toEqual([]);
  });
});
