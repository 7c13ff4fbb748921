import { Component, useEffect, useEffectEvent, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBox } from './ErrorBox.js';

// A recording the player cannot draw (a malformed file, a bug of ours or of rrweb's) fails here,
// around the player, with a message and a way back: never the whole app's "Something went wrong!".

export const PLAYER_FAILED = 'The player could not show this recording.';

/** What a failed player leaves in its place: the message, the error's own words, and a way back. */
export function PlayerFailure({ error, backLabel, onBack }: { error: unknown; backLabel: string; onBack: () => void }) {
  const detail = error instanceof Error && error.message ? error.message : undefined;
  return (
    <ErrorBox title={PLAYER_FAILED} message={detail}>
      <button type="button" className="button button-secondary button-small" onClick={onBack}>
        {backLabel}
      </button>
    </ErrorBox>
  );
}

/** rrweb's code: the lazy chunk named after rrweb-player in a build (vite.config.ts), its packages in development. */
const PLAYER_SCRIPT = /rrweb/;

/**
 * Errors rrweb throws later, from its own timers (a page it cannot draw, found while playing), reach
 * no React boundary: while mounted, this hands those from the player's script to `onError`.
 */
export function usePlayerScriptErrors(onError: (error: unknown) => void): void {
  const report = useEffectEvent((event: ErrorEvent) => {
    if (PLAYER_SCRIPT.test(event.filename ?? '')) onError(event.error ?? new Error(event.message));
  });
  useEffect(() => {
    window.addEventListener('error', report);
    return () => window.removeEventListener('error', report);
  }, []);
}

interface Props {
  children: ReactNode;
  /** The way back's label ("Close this recording", "Go Back"). */
  backLabel: string;
  onBack: () => void;
}

/** Catches what the player throws while it renders or sets itself up. */
export class PlayerErrorBoundary extends Component<Props, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error(PLAYER_FAILED) };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(PLAYER_FAILED, error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    const back = () => {
      this.setState({ error: null });
      this.props.onBack();
    };
    return <PlayerFailure error={this.state.error} backLabel={this.props.backLabel} onBack={back} />;
  }
}
