import { savedFactsOf, type SavedReplay } from './db.js';
import { openSaved, saveReplay } from './replayStore.js';
import { readRecordingFile, type RecordingFile } from './recordingFile.js';

// Recording files the user kept ("Keep in saved replays" on Saved). A file names a campaign and a
// session, but anyone can write one: it is kept as an imported recording under its own key, listed
// as such, and opened on Saved, never at the replay's address, whose saved copy stays the server's.

/** Keeps an opened recording file on the device, as the file it is (a file does not grow: complete). */
export async function keepImportedRecording(recording: RecordingFile): Promise<SavedReplay> {
  const { campaignId, session, events } = recording;
  return saveReplay({
    campaignId,
    sessionId: session.sessionId,
    body: new TextEncoder().encode(JSON.stringify(recording)),
    complete: true,
    eventCount: events.length,
    facts: savedFactsOf(session),
    imported: true,
  });
}

/** A kept recording file, read and checked again as any file is (marks it opened); null when gone. */
export async function openImportedRecording(key: string): Promise<RecordingFile | null> {
  const saved = await openSaved(key);
  if (!saved?.replay.imported) return null;
  return readRecordingFile(new Blob([saved.gzip]));
}
