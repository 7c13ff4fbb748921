import { SESSION_IDLE_MS } from '../../common/limits.js';

/** The tab's session as kept in sessionStorage: it survives page loads, not the tab. */
export interface SessionState {
  id: string;
  /** The next batch number. */
  seq: number;
  /** Time of the last recorded event. */
  last: number;
  /** 1 once ingest has acknowledged a batch carrying the session info. */
  sent?: 1;
  /** 1 after ingest refused this session (limit reached, campaign over, origin not allowed). */
  off?: 1;
  /** 1 when the campaign does not capture console messages. */
  quiet?: 1;
}

/** 32 hex characters from the browser's CSPRNG (randomUUID needs a secure context). */
export function newSessionId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => (b + 256).toString(16).slice(1)).join('');
}

export const freshSession = (now: number, id = newSessionId()): SessionState => ({ id, seq: 0, last: now });

/** The saved session when it is still live (under 30 minutes idle), else a new one. */
export function resumeSession(saved: string | null, now: number, id?: string): SessionState {
  try {
    const state = JSON.parse(saved as string) as SessionState;
    if (typeof state.id === 'string' && typeof state.seq === 'number' && now - state.last < SESSION_IDLE_MS) return state;
  } catch {
    // nothing saved, or not ours: start afresh
  }
  return freshSession(now, id);
}
