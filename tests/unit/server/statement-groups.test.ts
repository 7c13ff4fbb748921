import { describe, expect, it } from 'vitest';
import { StatementGroups } from '../../../server/recordings/postgres-batching.js';

// The grouping behind ingest's short way (server/recordings/postgres-batching.ts): what arrives in one
// turn of the event loop shares a statement, within bounds, one item a key.

interface Item {
  key: string;
  bytes: number;
}

function recorder(options = { concurrency: 1, maxGroup: 3, maxBytes: 100 }, fail = false) {
  const groups: string[][] = [];
  const failures: Array<[string, number]> = [];
  const groupsOf = new StatementGroups<Item, string>(
    async (group) => {
      groups.push(group.map((item) => item.key));
      if (fail) throw new Error('deadlock detected');
      return new Map(group.filter((item) => item.key !== 'unanswered').map((item) => [item.key, `done ${item.key}`]));
    },
    'not written',
    { warn: (details) => failures.push([(details.err as Error).message, details.batches ?? 0]) },
    options,
  );
  return { groups, failures, submit: (key: string, bytes = 1) => groupsOf.submit({ key, bytes }) };
}

describe('statement groups', () => {
  it('runs what arrives together as one group, in key order, each answered by its key', async () => {
    const { groups, submit } = recorder();
    expect(await Promise.all([submit('c'), submit('a'), submit('unanswered')])).toEqual(['done c', 'done a', 'not written']);
    expect(groups).toEqual([['a', 'c', 'unanswered']]);
  });

  it('puts a second item of a key, and what passes the count or byte bound, in a later group', async () => {
    const { groups, submit } = recorder();
    await Promise.all([submit('a'), submit('a'), submit('b'), submit('c'), submit('d')]);
    expect(groups).toEqual([
      ['a', 'b', 'c'],
      ['a', 'd'],
    ]);

    const bytes = recorder();
    await Promise.all([bytes.submit('a', 60), bytes.submit('b', 60), bytes.submit('c', 500)]);
    expect(bytes.groups).toEqual([['a'], ['b'], ['c']]); // an item past the bound alone still runs
  });

  it('answers every item of a failed statement as not written, and tells of the failure', async () => {
    const { submit, failures } = recorder(undefined, true);
    expect(await Promise.all([submit('a'), submit('b')])).toEqual(['not written', 'not written']);
    expect(failures).toEqual([['deadlock detected', 2]]);
  });

  it('tells of no failure when the statement runs', async () => {
    const { submit, failures } = recorder();
    await Promise.all([submit('a'), submit('unanswered')]);
    expect(failures).toEqual([]);
  });
});
