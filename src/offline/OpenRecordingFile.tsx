import { useEffect, useState, type DragEvent } from 'react';
import { RecordingPlayer } from '../components/ReplayPlayer.js';
import { SessionInfo } from '../components/SessionInfo.js';
import { readRecordingFile, type RecordingFile } from './recordingFile.js';
import { saveReplay } from './replayStore.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';
import { REPLAY_HEIGHT, REPLAY_SPEEDS, REPLAY_WIDTH } from '../components/replay/replaySettings.js';

/** Files the installed app was opened with (file_handlers), where the browser has a launch queue. */
interface LaunchParams {
  files?: { getFile(): Promise<File> }[];
}
declare global {
  interface Window {
    launchQueue?: { setConsumer(consumer: (params: LaunchParams) => void): void };
  }
}

/** Keeps a file's recording in the offline library, in the same shape as a replay saved from the server. */
async function keepInLibrary(recording: RecordingFile): Promise<void> {
  const { session, events, campaignId } = recording;
  const { userAgent, remoteIpAddress, ipMode, language, timezone, webdriver, cookiesEnabled, hasFocus, fullScreenEnabled, isBot, botReason } = session;
  const init = { userAgent, remoteIpAddress, ipMode, language, timezone, webdriver, cookiesEnabled, hasFocus, fullScreenEnabled, isBot, botReason };
  const complete = Date.now() - session.lastActivityAt > SESSION_IDLE_MS;
  const body = new TextEncoder().encode(JSON.stringify({ init, complete, events }));
  await saveReplay({ campaignId, sessionId: session.sessionId, body, complete, eventCount: events.length });
}

/** "Open a recording file" on Saved: pick, drop, or launch the app with a .json.gz, and watch it here. */
export function OpenRecordingFile() {
  const [recording, setRecording] = useState<RecordingFile | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const open = async (file: Blob | undefined) => {
    if (!file) return;
    setMessage(null);
    setRecording(null);
    try {
      setRecording(await readRecordingFile(file));
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  useEffect(() => {
    window.launchQueue?.setConsumer((params) => void params.files?.[0]?.getFile().then(open));
  }, []);

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void open(event.dataTransfer.files[0]);
  };

  const keep = async () => {
    if (!recording) return;
    try {
      await keepInLibrary(recording);
      setMessage('Kept in your saved replays.');
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <section
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
        Open a recording file <input type="file" accept=".gz,.json,application/gzip,application/json" onChange={(event) => void open(event.target.files?.[0])} />
      </label>
      {message && (
        <p role="status" className="small">
          {message}
        </p>
      )}
      {recording && (
        <>
          <h3 className="player-title">
            Session {recording.session.sessionId}: {recording.events.length} events recorded
          </h3>
          <RecordingPlayer events={recording.events} width={REPLAY_WIDTH} height={REPLAY_HEIGHT} speedOption={REPLAY_SPEEDS} />
          <button type="button" className="button button-secondary" onClick={() => void keep()}>
            Keep in saved replays
          </button>
          <SessionInfo init={recording.session} />
        </>
      )}
    </section>
  );
}
