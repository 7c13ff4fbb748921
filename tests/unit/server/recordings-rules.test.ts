import { describe, expect, it } from 'vitest';
import { CAPS, NOTHING_COUNTED, capReached, raised } from '../../../server/recordings/rules.js';
import { admissionSql, raiseSql, withinCapsSql } from '../../../server/recordings/statements.js';

// The session's counter rules (server/recordings/rules.ts): one definition, read by JS and
// written into both databases' SQL.

const caps = { sessionMaxBytes: 2 * 1024 * 1024, sessionMaxEvents: 100, sessionMaxBatches: 3 };
const batch = { eventCount: 10, jsonBytes: 1000, pageLoads: 1, humanInput: true };

describe('recordings: the counter rules', () => {
  it('raises every counter a batch counts, the human-input flag once set staying set', () => {
    const once = raised(NOTHING_COUNTED, batch);
    expect(once).toEqual({ event_count: 10, byte_count: 1000, batch_count: 1, page_count: 1, has_human_input: 1 });
    expect(raised(once, { ...batch, humanInput: false })).toEqual({ event_count: 20, byte_count: 2000, batch_count: 2, page_count: 2, has_human_input: 1 });
  });

  it('names the cap a batch would pass, and none at the cap itself', () => {
    const row = { byte_count: 0, event_count: 0, batch_count: 0 };
    expect(capReached({ ...row, batch_count: 2 }, batch, caps)).toBeNull();
    expect(capReached({ ...row, batch_count: 3 }, batch, caps)).toBe('Session closed: it reached 3 batches');
    expect(capReached({ ...row, event_count: 90 }, batch, caps)).toBeNull();
    expect(capReached({ ...row, event_count: 91 }, batch, caps)).toBe('Session closed: it reached 100 events');
    expect(capReached({ ...row, byte_count: caps.sessionMaxBytes - 999 }, batch, caps)).toBe('Session closed: it reached 2 MB of events');
    expect(CAPS.map((cap) => cap.column).sort()).toEqual(['batch_count', 'byte_count', 'event_count']);
  });

  it('writes the same rules as SQL for SQLite and PostgreSQL', () => {
    const by = (column: string) => `v.${column}`;
    expect(raiseSql('sqlite', 's', by)).toBe(
      'event_count = s.event_count + v.event_count, byte_count = s.byte_count + v.byte_count, batch_count = s.batch_count + v.batch_count, page_count = s.page_count + v.page_count, has_human_input = max(s.has_human_input, v.has_human_input)',
    );
    expect(raiseSql('postgres', 's', by)).toContain('has_human_input = greatest(s.has_human_input, v.has_human_input)');
    expect(withinCapsSql('s', by, (column) => `:${column}`)).toBe(
      's.byte_count <= :byte_count - v.byte_count and s.event_count <= :event_count - v.event_count and s.batch_count <= :batch_count - v.batch_count',
    );
    expect(admissionSql('k', '2')).toEqual({
      set: 'session_count = k.session_count + 2',
      fits: '(k.session_limit = 0 or k.session_count + 2 <= k.session_limit)',
    });
  });
});
