import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BufferedWriter, MAX_TRIES } from '../../../server/recordings/buffered-writer.js';

// The one buffer-then-write of the stored batches' projections: bounded, a failed write tried
// again a few times, what waits written on close. The timer is an hour: every write here is asked for.

interface Entry {
  key: string;
  count: number;
}

function writerOf(write: (entries: Entry[]) => Promise<void>, maxPending = 3) {
  const warnings: string[] = [];
  const log = { warn: (_details: object, message: string) => void warnings.push(message) } as unknown as FastifyBaseLogger;
  const writer = new BufferedWriter<Entry>({ name: 'test log', flushMs: 3_600_000, maxPending, write, log, retryMs: 0 });
  const add = (key: string) => {
    const entry = writer.entry(key, () => ({ key, count: 0 }));
    if (entry) entry.count++;
  };
  return { writer, add, warnings };
}

describe('BufferedWriter', () => {
  it('keeps at most maxPending entries, adds onto one already waiting, and logs what it dropped', async () => {
    const written: Entry[][] = [];
    const { writer, add, warnings } = writerOf(async (entries) => void written.push(entries.map((e) => ({ ...e }))));
    for (const key of ['a', 'b', 'a', 'c', 'd', 'e', 'b']) add(key);
    expect(writer.size).toBe(3);
    await writer.flush();
    expect(written).toEqual([
      [
        { key: 'a', count: 2 },
        { key: 'b', count: 2 },
        { key: 'c', count: 1 },
      ],
    ]);
    expect(warnings).toEqual(['test log: dropped, too many waiting']);
    // Written, the buffer has room again.
    add('d');
    await writer.flush();
    expect(written[1]).toEqual([{ key: 'd', count: 1 }]);
  });

  it('tries a failed write again, and drops its entries (logged) after MAX_TRIES', async () => {
    let calls = 0;
    const written: string[][] = [];
    const { writer, add, warnings } = writerOf(async (entries) => {
      calls++;
      if (calls === 1) throw new Error('database busy');
      if (entries.some((e) => e.key === 'poison')) throw new Error('refused');
      written.push(entries.map((e) => e.key));
    });
    add('a');
    await writer.flush();
    expect({ calls, written, warnings }).toEqual({ calls: 2, written: [['a']], warnings: [] });

    add('poison');
    await expect(writer.flush()).resolves.toBeUndefined();
    expect(calls).toBe(2 + MAX_TRIES);
    expect(warnings).toEqual(['test log: write failed, entries dropped']);
    // The next write is not held back by the one given up.
    add('b');
    await writer.flush();
    expect(written).toEqual([['a'], ['b']]);
  });

  it('writes what waits on close, after a write already under way', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { writer, add } = writerOf(async (entries) => {
      if (entries[0]?.key === 'first') await held;
      order.push(...entries.map((e) => e.key));
    });
    add('first');
    const underWay = writer.flush();
    add('last');
    const closed = writer.close();
    release();
    await Promise.all([underWay, closed]);
    expect(order).toEqual(['first', 'last']);
    expect(writer.size).toBe(0);
  });
});
