import { describe, expect, it } from 'vitest';
import { HeavyGate } from '../../../server/replay/heavy-gate.js';

describe('the gate for heavy replay retrievals', () => {
  it('lets N in, queues up to its queue length in order, and turns the rest away', async () => {
    const gate = new HeavyGate(1, 2);
    const first = await gate.enter();
    expect(first).toBeTypeOf('function');
    const order: string[] = [];
    const entered = (name: string) => (release: (() => void) | null) => {
      order.push(name);
      return release;
    };
    const second = gate.enter().then(entered('second'));
    const third = gate.enter().then(entered('third'));
    expect(gate.counts).toEqual({ running: 1, waiting: 2 });
    expect(await gate.enter()).toBeNull();
    first!();
    first!(); // a second release changes nothing
    const releaseSecond = await second;
    expect(order).toEqual(['second']);
    expect(gate.counts).toEqual({ running: 1, waiting: 1 });
    releaseSecond!();
    (await third)!();
    expect(order).toEqual(['second', 'third']);
    expect(gate.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('gives a waiting place up when its caller goes away', async () => {
    const gate = new HeavyGate(1, 1);
    const first = await gate.enter();
    const gone = new AbortController();
    const waiting = gate.enter(gone.signal);
    expect(gate.counts.waiting).toBe(1);
    gone.abort();
    expect(await waiting).toBeNull();
    expect(gate.counts).toEqual({ running: 1, waiting: 0 });
    first!();
    expect(gate.counts).toEqual({ running: 0, waiting: 0 });
  });
});
