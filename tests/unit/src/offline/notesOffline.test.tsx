import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { recordReplayNotes, saveReplay } from '../../../../src/offline/replayStore.js';
import { keepImportedRecording } from '../../../../src/offline/importedRecordings.js';
import { OpenRecordingFile, type OpenedRecording } from '../../../../src/offline/OpenRecordingFile.js';
import type { Note } from '../../../../common/api/notes.js';
import { PEOPLE_TAGS } from '../../../../common/people.js';
import { freshDevice, loadReplay } from './reset.js';
import { recordingFile } from './recording-fixtures.js';

// Notes travel with offline copies (kept with the saved replay, through a refresh of it), and an
// opened recording file shows its notes with the activity, and what the site told of its visitor.

beforeEach(freshDevice);
afterEach(async () => {
  cleanup();
  await freshDevice();
});

const note: Note = { id: 'n1', text: 'Pays here', timestamp: 1_700_000_000_500, author: { id: 'u1', name: 'Kim Keeper' }, createdAt: 1, updatedAt: 1 } as Note;
const body = new TextEncoder().encode(JSON.stringify({ events: [{ type: 4, data: {}, timestamp: 1_700_000_000_000 }], complete: true }));

describe('notes of a saved replay', () => {
  it('are kept with the copy, and a refreshed copy keeps them', async () => {
    await saveReplay({ campaignId: 'c1', sessionId: 'session-1', body, complete: false, eventCount: 1 }, 1000);
    expect(await recordReplayNotes('c1', 'session-1', [note])).toBe(true);
    expect((await loadReplay('c1', 'session-1'))?.replay.notes).toEqual([note]);
    await saveReplay({ campaignId: 'c1', sessionId: 'session-1', body, complete: true, eventCount: 1 }, 2000);
    expect((await loadReplay('c1', 'session-1'))?.replay.notes).toEqual([note]);
  });

  it('are not kept for a replay that is not saved, nor over an imported file', async () => {
    expect(await recordReplayNotes('c1', 'not-saved', [note])).toBe(false);
    await keepImportedRecording(recordingFile('c1', 'imported-1'));
    expect(await recordReplayNotes('c1', 'imported-1', [note])).toBe(false);
  });
});

function SavedPage() {
  const [opened, setOpened] = useState<OpenedRecording | null>(null);
  return <OpenRecordingFile opened={opened} onOpened={setOpened} />;
}

describe('an opened recording file', () => {
  // Its notes show with the player's activity once the player is ready (tests/e2e/replay-export.test.ts).
  it("shows the person the site identified, with no link to the server's person", async () => {
    const file = recordingFile('c1', 'abcdefgh');
    file.notes = [{ text: 'The visitor hesitates here', timestamp: 1_500, author: 'Kim Keeper', createdAt: 1 }];
    file.events.push({ type: 5, data: { tag: PEOPLE_TAGS.identify, payload: { userId: 'customer-4711', traits: { plan: 'pro' } } }, timestamp: 1_020 });
    render(<SavedPage />);
    fireEvent.change(screen.getByLabelText('Open a recording file'), { target: { files: [new File([JSON.stringify(file)], 'tapedeck-recording.json')] } });
    expect(await screen.findByText('customer-4711')).toBeTruthy();
    expect(screen.getByTestId('people-traits').textContent).toContain('pro');
    // The file's person has no page here: the file is not the server's.
    expect(screen.queryByRole('link', { name: 'All sessions of this person' })).toBeNull();
  });
});
