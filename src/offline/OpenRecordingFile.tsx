import { useEffect, useEffectEvent, useRef, useState, type DragEvent } from 'react';
import { RecordingPlayer } from '../components/ReplayPlayer.js';
import { SessionInfo } from '../components/SessionInfo.js';
import { PlayerErrorBoundary, PlayerFailure, usePlayerScriptErrors } from '../components/PlayerErrorBoundary.js';
import { readRecordingFile, type RecordingFile } from './recordingFile.js';
import { keepImportedRecording } from './importedRecordings.js';
import { REPLAY_HEIGHT, REPLAY_SPEEDS, REPLAY_WIDTH } from '../components/replay/replaySettings.js';
import { ActivityMarkers, ActivityPanel, useActivityItems } from '../components/replay/ActivityTimeline.js';
import { recordingStart } from '../components/replay/activity.js';
import { formatPlayerTime } from '../components/player/playerMath.js';
import { PersonFacts } from '../components/replay/PersonFacts.js';
import type { RecordingNote } from '../../common/api/notes.js';

/** Files the installed app was opened with (file_handlers), where the browser has a launch queue. */
interface LaunchParams {
  files?: { getFile(): Promise<File> }[];
}
declare global {
  interface Window {
    launchQueue?: { setConsumer(consumer: (params: LaunchParams) => void): void };
  }
}

/** The recording shown in the box: a file just opened, or one kept earlier and opened from the list. */
export interface OpenedRecording {
  recording: RecordingFile;
  kept: boolean;
}

export const KEPT_MESSAGE = 'Kept in your saved replays. It is listed there as an imported file; the replay’s own page still shows what the server recorded.';

/** Each recording opened gets its own player (and error boundary): a failure never outlives its recording. */
const playerKeys = new WeakMap<RecordingFile, number>();
let playersMade = 0;
function playerKey(recording: RecordingFile): number {
  const key = playerKeys.get(recording) ?? ++playersMade;
  playerKeys.set(recording, key);
  return key;
}

/** The opened recording: its player (a failure stays inside the box), keep button and session info. */
function OpenedPlayer({ opened, onKeep, onClose }: { opened: OpenedRecording; onKeep: () => void; onClose: () => void }) {
  const { recording } = opened;
  const activity = useActivityItems(recording.events, recording.notes);
  const [playerError, setPlayerError] = useState<unknown>(null);
  usePlayerScriptErrors((error) => setPlayerError((first: unknown) => first ?? error ?? new Error('The player failed')));
  return (
    <>
      <h3 className="player-title">
        Session {recording.session.sessionId}: {recording.events.length} events recorded
      </h3>
      {playerError ? (
        <PlayerFailure error={playerError} backLabel="Close this recording" onBack={onClose} />
      ) : (
        <PlayerErrorBoundary backLabel="Close this recording" onBack={onClose}>
          <RecordingPlayer
            events={recording.events}
            underControls={(view) => <ActivityMarkers items={activity} totalTime={view.totalTime} onSeek={view.seek} />}
            afterPlayer={(view) => (
              <ActivityPanel
                events={recording.events}
                items={activity}
                currentTime={view.currentTime}
                onSeek={view.seek}
                notes={<FileNotes notes={recording.notes} start={recordingStart(recording.events)} onSeek={view.seek} />}
              />
            )}
            width={REPLAY_WIDTH}
            height={REPLAY_HEIGHT}
            speedOption={REPLAY_SPEEDS}
            onError={(error) => setPlayerError(error ?? new Error('The player failed'))}
          />
        </PlayerErrorBoundary>
      )}
      {!opened.kept && (
        <button type="button" className="button button-secondary" onClick={onKeep}>
          Keep in saved replays
        </button>
      )}
      <SessionInfo init={recording.session} />
      <PersonFacts campaignId={recording.campaignId} events={recording.events} linked={false} />
    </>
  );
}

/** A file's notes (read only: they are the server's, as exported), each a way to its moment. */
function FileNotes({ notes, start, onSeek }: { notes: RecordingNote[] | undefined; start: number; onSeek: (ms: number) => void }) {
  if (!notes?.length) return null;
  return (
    <ol className="note-list" aria-label="Notes">
      {notes.map((note, i) => {
        const at = Math.max(0, note.timestamp - start);
        return (
          <li key={i} className="note">
            <button type="button" className="activity-jump" onClick={() => onSeek(at)}>
              <span className="activity-dot activity-note" aria-hidden="true" />
              <span className="activity-time">{formatPlayerTime(at)}</span> <span className="small muted">{note.author}:</span> {note.text}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** "Open a recording file" on Saved: pick, drop, or launch the app with a .json.gz, and watch it here. */
export function OpenRecordingFile({ opened, onOpened }: { opened: OpenedRecording | null; onOpened: (opened: OpenedRecording | null) => void }) {
  const [message, setMessage] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const box = useRef<HTMLElement>(null);

  const open = async (file: Blob | undefined) => {
    if (!file) return;
    setMessage(null);
    onOpened(null);
    try {
      onOpened({ recording: await readRecordingFile(file), kept: false });
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  const launched = useEffectEvent((file: File) => void open(file));
  useEffect(() => {
    window.launchQueue?.setConsumer((params) => void params.files?.[0]?.getFile().then(launched));
  }, []);

  // A kept recording opened from the list below plays up here.
  useEffect(() => {
    if (opened?.kept) box.current?.scrollIntoView?.({ block: 'start' });
  }, [opened]);

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void open(event.dataTransfer.files[0]);
  };

  const keep = async () => {
    if (!opened) return;
    try {
      await keepImportedRecording(opened.recording);
      onOpened({ ...opened, kept: true });
      setMessage(KEPT_MESSAGE);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <section
      ref={box}
      className={`card open-recording${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      data-testid="open-recording"
    >
      <h2>Open a recording file</h2>
      <p className="small muted">A downloaded recording (.json.gz) plays here with no network and no sign-in. Or drop it on this box.</p>
      <label>
        Open a recording file{' '}
        <input type="file" accept=".gz,.json,application/gzip,application/json" onChange={(event) => void open(event.target.files?.[0])} />
      </label>
      {message && (
        <p role="status" className="small">
          {message}
        </p>
      )}
      {opened && (
        <OpenedPlayer
          key={playerKey(opened.recording)}
          opened={opened}
          onKeep={() => void keep()}
          onClose={() => {
            setMessage(null);
            onOpened(null);
          }}
        />
      )}
    </section>
  );
}
