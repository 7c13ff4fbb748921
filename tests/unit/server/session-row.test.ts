import { describe, expect, it } from 'vitest';
import { toSession, type SessionRow } from '../../../server/sessions/rows.js';

describe('a session as the API shows it', () => {
  it('never has more active time than duration (two clocks: the server measures duration, the events active time)', () => {
    const row = { id: 's', started_at: 1000, last_activity_at: 10_000, duration_ms: 9000, active_ms: 10_000, pages: null } as unknown as SessionRow;
    const session = toSession(row);
    expect(session.durationMs).toBe(10_000);
    expect(session.activeMs).toBeLessThanOrEqual(session.durationMs);
    expect(toSession({ ...row, active_ms: 4000 }).durationMs).toBe(9000);
  });
});
