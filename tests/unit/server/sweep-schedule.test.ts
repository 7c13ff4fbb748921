import { describe, expect, it } from 'vitest';
import { sweepSchedule } from '../../../server/ingest/routes.js';

describe('the bot sweep after an admission', () => {
  it('runs at most once a minute per campaign, each campaign on its own clock', () => {
    const due = sweepSchedule(60_000);
    const t = 1_000_000;
    expect([due('a', t), due('a', t + 1), due('a', t + 59_999), due('b', t + 30_000), due('a', t + 60_000), due('b', t + 60_000)]).toEqual([true, false, false, true, true, false]);
  });
});
