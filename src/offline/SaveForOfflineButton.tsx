import { useState } from 'react';
import { formatBytes } from '../lib/format.js';
import { saveForOffline, type SaveProgress } from './saveForOffline.js';
import { useSavedReplay } from './useSavedReplays.js';
import { useOnline } from './useOnline.js';
import { useRecordingNow } from '../lib/useRecordingNow.js';
import './offline.css';

interface Props {
  campaignId: string;
  sessionId: string;
  /** Size hint for the progress bar when the answer's length is unknown. */
  expectedBytes?: number;
}

function progressLabel({ received, total }: SaveProgress): string {
  if (total) return `Saving… ${Math.min(99, Math.floor((received / total) * 100))}%`;
  return `Saving… ${formatBytes(received)}`;
}

/** 'Save for offline' with download progress; 'Available offline' once on the device. */
export function SaveForOfflineButton({ campaignId, sessionId, expectedBytes }: Props) {
  const saved = useSavedReplay(campaignId, sessionId);
  const [progress, setProgress] = useState<SaveProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const online = useOnline();
  const recording = useRecordingNow(saved && !saved.complete ? saved.facts : undefined);

  const save = async () => {
    setError(null);
    setProgress({ received: 0, total: null });
    try {
      await saveForOffline(campaignId, sessionId, { onProgress: setProgress, expectedBytes });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Saving for offline failed.');
    } finally {
      setProgress(null);
    }
  };

  if (saved && !progress) {
    return (
      <span className="offline-save" data-testid="offline-state">
        <span className="badge badge-offline" title={`${formatBytes(saved.size)} on this device`}>
          Available offline
        </span>
        {!saved.complete && <span className="small muted">{recording ? '(still recording; refreshes when online)' : '(refreshes when online)'}</span>}
      </span>
    );
  }
  // Offline a save cannot work: no button that only fails.
  if (!online && !progress && !error) return null;
  return (
    <span className="offline-save" data-testid="offline-state">
      {progress ? (
        <>
          <progress max={progress.total ?? undefined} value={progress.total ? progress.received : undefined} aria-label="Download progress" />
          <span className="small" role="status">
            {progressLabel(progress)}
          </span>
        </>
      ) : (
        <button type="button" className="button button-secondary button-small" onClick={() => void save()} disabled={saved === undefined}>
          Save for offline
        </button>
      )}
      {error && (
        <span className="offline-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
