import { useEffect, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import type { SavedReplay } from './db.js';
import { clearReplays, getBudget, removeReplay, setBudget, setPinned } from './replayStore.js';
import { requestPersistentStorage, storageFigures, type StorageFigures } from './storage.js';
import { useSavedReplays } from './useSavedReplays.js';
import { timeAgo } from './timeAgo.js';
import { formatBytes, formatDurationMs } from '../lib/format.js';
import { ProblemBadges } from '../components/SessionFacts.js';
import { replayPageLink } from '../lib/replayUrls.js';
import { isQuotaError, QUOTA_MESSAGE } from './errors.js';
import { OpenRecordingFile, type OpenedRecording } from './OpenRecordingFile.js';
import { openImportedRecording } from './importedRecordings.js';
import { useRecordingNow } from '../lib/useRecordingNow.js';
import { useCampaignName } from './useCampaignName.js';
import './offline.css';

const MB = 1024 * 1024;

function StoragePanel({ replays, figures }: { replays: SavedReplay[]; figures: StorageFigures | null }) {
  const library = replays.reduce((sum, replay) => sum + replay.size, 0);
  return (
    <section className="card saved-storage" aria-labelledby="storage-title">
      <h2 id="storage-title">Storage on this device</h2>
      <p data-testid="storage-used">
        Storage used: {figures?.usage != null ? formatBytes(figures.usage) : 'unknown'} of {figures?.quota != null ? formatBytes(figures.quota) : 'unknown'}{' '}
        available to this app
      </p>
      {figures?.usage != null && figures.quota ? <meter min={0} max={figures.quota} value={figures.usage} aria-label="Storage used" /> : null}
      <p className="small muted">
        Saved replays: {replays.length} ({formatBytes(library)} compressed).{' '}
        {figures?.persisted ? 'Storage is persistent.' : 'Pin a replay to ask the browser to keep this storage.'}
      </p>
    </section>
  );
}

function BudgetForm({ onMessage }: { onMessage: (message: string) => void }) {
  const [value, setValue] = useState('');
  useEffect(() => {
    void getBudget().then((bytes) => setValue(String(Math.round(bytes / MB))));
  }, []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const megabytes = Number(value);
    if (!Number.isFinite(megabytes) || megabytes <= 0) {
      onMessage('Enter a storage budget in megabytes, greater than 0.');
      return;
    }
    const evicted = await setBudget(megabytes * MB);
    onMessage(
      evicted.length ? `Budget saved. ${evicted.length} replay${evicted.length === 1 ? '' : 's'} opened longest ago removed to fit it.` : 'Budget saved.',
    );
  };
  return (
    <form className="saved-budget" onSubmit={(event) => void submit(event)}>
      <label>
        Storage budget for saved replays (MB)
        <input type="number" min={1} step={1} value={value} onChange={(event) => setValue(event.target.value)} />
      </label>
      <button type="submit" className="button button-secondary button-small">
        Save budget
      </button>
      <p className="small muted" style={{ flexBasis: '100%', margin: 0 }}>
        Past the budget, unpinned replays are removed, the one opened longest ago first. Pinned replays are never removed.
      </p>
    </form>
  );
}

/** A saved replay opens at its page; an imported recording file opens on Saved (never at the replay's page, which is the server's). */
function OpenAction({ replay, onOpenImported }: { replay: SavedReplay; onOpenImported: (replay: SavedReplay) => void }) {
  if (!replay.imported) {
    return (
      <Link {...replayPageLink(replay.campaignId, replay.sessionId)} className="button button-primary button-small">
        Open
      </Link>
    );
  }
  return (
    <button type="button" className="button button-primary button-small" onClick={() => onOpenImported(replay)}>
      Open
    </button>
  );
}

function SavedItem({
  replay,
  onMessage,
  onOpenImported,
}: {
  replay: SavedReplay;
  onMessage: (message: string) => void;
  onOpenImported: (replay: SavedReplay) => void;
}) {
  const recording = useRecordingNow(replay.complete ? undefined : replay.facts);
  // From the campaign list (the persisted copy answers offline), else the name kept with the replay.
  const campaignName = useCampaignName(replay.campaignId, replay);
  const togglePin = async () => {
    await setPinned(replay.key, !replay.pinned);
    if (!replay.pinned && !(await requestPersistentStorage())) {
      onMessage('Pinned. The browser did not grant persistent storage, so it may still clear this site’s data when the device runs low on space.');
    }
  };
  return (
    <li className="card saved-item" data-testid="saved-replay">
      <dl>
        <div>
          <dt>Campaign</dt>
          <dd title={replay.campaignId}>{campaignName ?? <span className="mono small">{replay.campaignId}</span>}</dd>
        </div>
        <div>
          <dt>Session</dt>
          <dd className="mono small">{replay.sessionId}</dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{formatBytes(replay.size)}</dd>
        </div>
        <div>
          <dt>Saved</dt>
          <dd title={new Date(replay.savedAt).toLocaleString()}>{timeAgo(replay.savedAt)}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{replay.eventCount}</dd>
        </div>
        {replay.facts?.durationMs !== undefined && (
          <div>
            <dt>Duration</dt>
            <dd>{formatDurationMs(replay.facts.durationMs)}</dd>
          </div>
        )}
      </dl>
      {replay.facts && <ProblemBadges session={replay.facts} />}
      <div className="actions">
        {replay.imported && <span className="badge badge-imported">Imported file</span>}
        {replay.pinned && <span className="badge badge-offline">Pinned</span>}
        {recording && <span className="badge badge-pending">Still recording</span>}
        <OpenAction replay={replay} onOpenImported={onOpenImported} />
        <button type="button" className="button button-secondary button-small" onClick={() => void togglePin()} aria-pressed={replay.pinned}>
          {replay.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" className="button button-secondary button-small" onClick={() => void removeReplay(replay.key)}>
          Remove
        </button>
      </div>
    </li>
  );
}

/** Route /saved: the replays kept on this device, the storage they use, and the budget. */
export function SavedReplays() {
  const { replays } = useSavedReplays();
  const [figures, setFigures] = useState<StorageFigures | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [opened, setOpened] = useState<OpenedRecording | null>(null);
  useEffect(() => {
    void storageFigures().then(setFigures);
  }, [replays]);
  const guard = (work: () => Promise<void>) => () =>
    void work().catch((error: unknown) => setMessage(isQuotaError(error) ? QUOTA_MESSAGE : error instanceof Error ? error.message : String(error)));
  const openImported = (replay: SavedReplay) =>
    guard(async () => {
      const recording = await openImportedRecording(replay.key);
      if (recording) setOpened({ recording, kept: true });
    })();

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Saved replays</h1>
          <p className="muted">Replays kept on this device play without a network.</p>
        </div>
        <div className="actions">
          <button type="button" className="button button-danger" disabled={!replays?.length} onClick={guard(clearReplays)}>
            Clear all
          </button>
        </div>
      </div>
      <OpenRecordingFile opened={opened} onOpened={setOpened} />
      {message && (
        <p className="card small" role="alert">
          {message}
        </p>
      )}
      <StoragePanel replays={replays ?? []} figures={figures} />
      <section className="card" style={{ margin: '1rem 0' }}>
        <BudgetForm onMessage={setMessage} />
      </section>
      {replays === null ? (
        <p role="status">Loading saved replays...</p>
      ) : replays.length === 0 ? (
        <div className="card" data-testid="saved-empty">
          <h2>No saved replays</h2>
          <p className="muted">Replays you watch, or save with 'Save for offline', appear here.</p>
        </div>
      ) : (
        <ul className="saved-list">
          {replays.map((replay) => (
            <SavedItem key={replay.key} replay={replay} onMessage={setMessage} onOpenImported={openImported} />
          ))}
        </ul>
      )}
    </div>
  );
}
