import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { demoReplayQueryOptions, prefersMobileDemo } from '../api/demo.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { RecordingPlayer } from './ReplayPlayer.js';
import { META_EVENT } from './player/playerMath.js';

// The landing page's demo: autoplay off, speeds 0.5–8, the player's own controls under the
// recording (they take their own height, so no fixed 70 px is kept), size from the recording's
// meta event (1366×768 when it has none, at least 1), never enlarged.

export const DEMO_SPEEDS = [0.5, 1, 2, 4, 8];

export function demoSize(events: ReplayEvent[]): { width: number; height: number } {
  const meta = events.find((e) => e.type === META_EVENT)?.data as { width?: unknown; height?: unknown } | undefined;
  const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(1, value) : fallback);
  return { width: num(meta?.width, 1366), height: num(meta?.height, 768) };
}

export function DemoPlayer() {
  const [isMobile] = useState(prefersMobileDemo);
  const demo = useQuery(demoReplayQueryOptions(isMobile));
  const [playerError, setPlayerError] = useState<string | null>(null);
  const size = useMemo(() => (demo.data ? demoSize(demo.data) : null), [demo.data]);

  if (demo.isPending) {
    return (
      <div className="demo-state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading demo...
      </div>
    );
  }
  const failure = demo.isError ? demo.error : playerError;
  if (failure) {
    const reason = failure instanceof Error ? failure.message : typeof failure === 'string' ? failure : '';
    return (
      <div className="demo-state demo-error" role="alert">
        <h3>Couldn't load demo</h3>
        <p>{reason || 'Failed to load demo'}</p>
      </div>
    );
  }
  if (!demo.data || !size) return null;
  return (
    <RecordingPlayer
      events={demo.data}
      width={size.width}
      height={size.height}
      speedOption={DEMO_SPEEDS}
      maxScale={1}
      label="Demo replay"
      deferUntilVisible
      onError={(error) => setPlayerError(error instanceof Error ? error.message : 'Failed to load demo')}
    />
  );
}
