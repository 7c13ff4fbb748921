import { describe, expect, it } from 'vitest';
import { HeavyGate } from '../../../server/http/heavy-gate.js';

describe('the gate for heavy replay retrievals', () => {
  it('lets N in, queues up to its queue length in order, and turns the rest away', async () => {
    const gate = new HeavyGate(1, 2);
    const first = await gate.enter('a');
    expect(first).toBeTypeOf('function');
    const order: string[] = [];
    const entered = (name: string) => (release: (() => void) | null) => {
      order.push(name);
      return release;
    };
    const second = gate.enter('a').then(entered('second'));
    const third = gate.enter('a').then(entered('third'));
    expect(gate.counts).toEqual({ running: 1, waiting: 2 });
    expect(await gate.enter('a')).toBeNull();
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
    const first = await gate.enter('a');
    const gone = new AbortController();
    const waiting = gate.enter('a', gone.signal);
    expect(gate.counts.waiting).toBe(1);
    gone.abort();
    expect(await waiting).toBeNull();
    expect(gate.counts).toEqual({ running: 1, waiting: 0 });
    first!();
    expect(gate.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('gives one owner at most its share of the slots and of the queue, and a freed slot to the owner holding fewest', async () => {
    const gate = new HeavyGate(2, 4, { slots: 1, waiting: 1 });
    const mine = await gate.enter('attacker');
    expect(mine).toBeTypeOf('function');
    // The attacker's second retrieval waits though a slot is free; its third is turned away.
    const attackerWaits = gate.enter('attacker');
    expect(gate.counts).toEqual({ running: 1, waiting: 1 });
    expect(await gate.enter('attacker')).toBeNull();
    // Another owner gets the free slot at once; a third owner queues behind the attacker's waiter.
    const other = await gate.enter('other');
    expect(other).toBeTypeOf('function');
    const order: string[] = [];
    const thirdWaits = gate.enter('third').then((release) => (order.push('third'), release));
    void attackerWaits.then(() => order.push('attacker'));
    expect(gate.counts).toEqual({ running: 2, waiting: 2 });
    // The other owner's slot frees: the attacker already holds one, so the third owner goes first.
    other!();
    const third = await thirdWaits;
    expect(order).toEqual(['third']);
    expect(gate.counts).toEqual({ running: 2, waiting: 1 });
    mine!();
    (await attackerWaits)!();
    third!();
    expect(gate.counts).toEqual({ running: 0, waiting: 0 });
  });

  it("tells when an owner's own share is used, so heavy reads answer 429 rather than the node's 503", async () => {
    const gate = new HeavyGate(2, 8, { slots: 1, waiting: 1 });
    const running = await gate.enter('a');
    expect(gate.ownerFull('a')).toBe(false); // a waiting place is still its own
    const waiting = gate.enter('a');
    expect(gate.ownerFull('a')).toBe(true);
    expect(gate.ownerFull('b')).toBe(false);
    running!();
    (await waiting)!();
    expect(gate.ownerFull('a')).toBe(false);
  });
});
