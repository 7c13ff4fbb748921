import { useEffect, useState } from 'react';
import { recordingEndsAt, recordingNow, type RecordingState } from '../../common/recording-now.js';

/**
 * recordingNow (common/recording-now.ts) for what a page shows: true while batches arrive, turning
 * false by itself once the window has passed with none. No last batch known (an older copy): false.
 */
export function useRecordingNow(state: Partial<RecordingState> | undefined): boolean {
  const lastActivityAt = state?.lastActivityAt;
  const closed = state?.closed === true;
  // The clock is read when shown and when the window ends, never during a render.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (lastActivityAt === undefined || closed) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.max(0, recordingEndsAt({ lastActivityAt }) - Date.now()));
    return () => window.clearTimeout(timer);
  }, [lastActivityAt, closed]);
  return lastActivityAt !== undefined && recordingNow({ lastActivityAt, closed }, now);
}
