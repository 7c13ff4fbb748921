import { describe, expect, it } from 'vitest';
import { emptyFacts, factMoments, foldFacts, sessionFacts, type SessionFacts } from '../../../common/session-facts.js';
import { EVENT_NAMES_MAX, FIELDS_MAX, PEOPLE_TAGS } from '../../../common/people.js';
import { factsOfRow, factValues, type FactColumns } from '../../../server/sessions/rows.js';

// The people facts (tapedeck.identify, .event, .tag) fold as every fact does: batch after batch,
// carried on the session row between them.

const T = 1_750_000_000_000;
const custom = (t: number, tag: string, payload: object) => ({ type: 5, data: { tag, payload }, timestamp: T + t });

/** Folded a batch at a time, through the row's columns as ingest stores and reads them. */
function throughRows(batches: object[][]): SessionFacts {
  let facts = emptyFacts();
  for (const batch of batches) {
    const row = factValues(foldFacts(facts, factMoments(batch as never)));
    facts = factsOfRow(row as FactColumns);
  }
  return facts;
}

describe('people facts', () => {
  it('keeps the last id, merges traits and tags, and counts events across batches', () => {
    const facts = throughRows([
      [custom(0, PEOPLE_TAGS.identify, { userId: 'guest-1', traits: { plan: 'free' } }), custom(1, PEOPLE_TAGS.event, { name: 'signup', props: { step: 1 } })],
      [
        custom(2, PEOPLE_TAGS.identify, { userId: 'customer-4711', traits: { plan: 'pro', seats: 3 } }),
        custom(3, PEOPLE_TAGS.event, { name: 'signup' }),
        custom(4, PEOPLE_TAGS.tag, { key: 'team', value: 'blue' }),
      ],
      [custom(5, PEOPLE_TAGS.event, { name: 'checkout' }), custom(6, PEOPLE_TAGS.tag, { key: 'team', value: 'red' })],
    ]);
    expect(facts).toMatchObject({ userId: 'customer-4711', traits: { plan: 'pro', seats: 3 }, tags: { team: 'red' }, events: { signup: 2, checkout: 1 } });
  });

  it('stores nothing for a session that told nothing', () => {
    expect(factValues(foldFacts(emptyFacts(), []))).toMatchObject({ user_id: null, traits: null, tags: null, events: null });
  });

  it('bounds what a session keeps: FIELDS_MAX traits and tags, EVENT_NAMES_MAX names (known ones still count)', () => {
    const events = Array.from({ length: EVENT_NAMES_MAX + 10 }, (_, i) => custom(i, PEOPLE_TAGS.event, { name: 'e' + i }));
    const traits = Array.from({ length: FIELDS_MAX + 5 }, (_, i) => custom(i, PEOPLE_TAGS.identify, { userId: 'a', traits: { ['t' + i]: i } }));
    const { facts } = sessionFacts([...events, custom(9999, PEOPLE_TAGS.event, { name: 'e0' }), ...traits] as never);
    expect(Object.keys(facts.events)).toHaveLength(EVENT_NAMES_MAX);
    expect(facts.events.e0).toBe(2);
    expect(Object.keys(facts.traits)).toHaveLength(FIELDS_MAX);
  });

  it('reads names as a column holds them, and a name like a prototype key as any other', () => {
    const { facts, marks } = sessionFacts([
      custom(0, PEOPLE_TAGS.event, { name: 'constructor' }),
      custom(1, PEOPLE_TAGS.identify, { userId: 'a\u0000b' }),
      custom(2, PEOPLE_TAGS.event, { name: '__proto__' }),
    ] as never);
    expect(facts.events).toEqual(JSON.parse('{"constructor":1,"__proto__":1}'));
    expect(facts.userId).toBe('ab');
    expect(marks.filter((m) => m.kind === 'event').map((m) => m.t)).toEqual([T, T + 2]);
  });
});
