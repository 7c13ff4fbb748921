import { describe, expect, it } from 'vitest';
import { parseHeld } from '../../../common/held-batches.js';
import { liveAfter, liveBatchSeq, takeLiveBatch } from '../../../src/lib/liveFeed.js';
import { createReplaySource } from '../../../src/replay/replaySource.js';

const ev = (timestamp: number) => ({ type: 3, data: {}, timestamp });

describe('the live replay stream into the source, by seq', () => {
  it('takes a late lower-seq batch into its gap once, and a batch sent again not at all', () => {
    const held = parseHeld('4,2')!;
    const late = takeLiveBatch(held, 2);
    expect(late && liveAfter(late)).toBe('4');
    expect(takeLiveBatch(late!, 2)).toBeNull();
    expect(takeLiveBatch(held, 3)).toBeNull();
    expect(liveAfter(takeLiveBatch(held, 6)!)).toBe('6,2,5');
    expect(takeLiveBatch(held, NaN)).toBeNull();
    expect(liveAfter(parseHeld('')!)).toBeNull();
  });

  it('reads a message id as a seq only when it is one', () => {
    expect(liveBatchSeq('12')).toBe(12);
    for (const id of ['', '-1', '1.5', 'x', '9,3']) expect(liveBatchSeq(id)).toBeNaN();
  });

  it('appends each batch the download lacked once, a late one included, and never the backlog again', () => {
    // The download carried batches 0, 1 and 3 (batch 2 was sent late by the tracker).
    const source = createReplaySource(null, [ev(1), ev(2), ev(4)]);
    source.finishDownload({ complete: false, live: true, batches: '3,2' });
    const followed: number[] = [];
    source.follow(3, (events) => followed.push(...events.map((e) => e.timestamp)));
    source.appendLive(3, [ev(4)]); // sent again after a reconnect
    source.appendLive(4, [ev(5)]);
    source.appendLive(2, [ev(3)]); // the late batch, into its gap
    source.appendLive(2, [ev(3)]);
    source.appendLive(4, [ev(5)]);
    expect(followed).toEqual([5, 3]);
    expect(source.getSnapshot().events.map((e) => e.timestamp)).toEqual([1, 2, 4, 5, 3]);
    expect(liveAfter(source.getSnapshot().held!)).toBe('4');
  });

  it('takes nothing live while the download did not say what it carried (an older copy)', () => {
    const source = createReplaySource(null, [ev(1)]);
    source.finishDownload({ complete: false, live: true });
    source.appendLive(1, [ev(2)]);
    expect(source.getSnapshot().events).toHaveLength(1);
  });
});
