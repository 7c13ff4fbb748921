import { describe, expect, it } from 'vitest';
import { sharedFor } from '../../../server/cluster/health.js';

// /readyz asks the database; its answer is shared for a second, so callers cannot set the load.
describe('the readiness check shared between callers', () => {
  it('runs once for callers within the interval, again after it', async () => {
    let clock = 0;
    let runs = 0;
    const ready = sharedFor(
      1000,
      async () => ++runs,
      () => clock,
    );
    expect(await Promise.all(Array.from({ length: 50 }, () => ready()))).toEqual(Array.from({ length: 50 }, () => 1));
    clock = 999;
    expect(await ready()).toBe(1);
    clock = 1000;
    expect(await ready()).toBe(2);
    expect(runs).toBe(2);
  });
});
