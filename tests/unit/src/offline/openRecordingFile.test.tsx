import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { OpenRecordingFile, type OpenedRecording } from '../../../../src/offline/OpenRecordingFile.js';
import { PLAYER_FAILED, PlayerErrorBoundary } from '../../../../src/components/PlayerErrorBoundary.js';
import { notARecording, RECORDING_TOO_DEEP } from '../../../../src/offline/recordingFile.js';
import { recordingFile } from './recording-fixtures.js';

afterEach(cleanup);

function SavedPage() {
  const [opened, setOpened] = useState<OpenedRecording | null>(null);
  return (
    <>
      <h1>Saved replays</h1>
      <OpenRecordingFile opened={opened} onOpened={setOpened} />
    </>
  );
}

const pick = (text: string) => {
  const input = screen.getByLabelText('Open a recording file');
  fireEvent.change(input, { target: { files: [new File([text], 'tapedeck-forged.json')] } });
};

describe('Open a recording file', () => {
  it('refuses a file with wrongly typed fields with a message naming the field, and the page stays', async () => {
    const recording = recordingFile('c', 'abcdefgh');
    render(<SavedPage />);
    pick(JSON.stringify({ ...recording, session: { ...recording.session, userAgent: {} } }));
    expect(await screen.findByText(notARecording('session.userAgent must be text or null'))).toBeTruthy();
    pick(JSON.stringify({ ...recording, events: [1, null] }));
    expect(await screen.findByText(notARecording('events[0] must be an object'))).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Saved replays' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep in saved replays' })).toBeNull();
  });

  it('refuses a 20,000-deep page tree with a message', async () => {
    const text = JSON.stringify({ ...recordingFile('c', 'abcdefgh'), events: [{ type: 2, data: { node: '@' }, timestamp: 1 }] });
    render(<SavedPage />);
    pick(text.replace('"@"', '{"childNodes":['.repeat(20_000) + ']}'.repeat(20_000)));
    expect(await screen.findByText(RECORDING_TOO_DEEP)).toBeTruthy();
  });
});

describe('PlayerErrorBoundary', () => {
  it('shows what failed in place of the player, with a way back, and keeps the rest of the page', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onBack = vi.fn();
    const Broken = (): never => {
      throw new TypeError("Cannot read properties of null (reading 'type')");
    };
    render(
      <main>
        <h1>Saved replays</h1>
        <PlayerErrorBoundary backLabel="Close this recording" onBack={onBack}>
          <Broken />
        </PlayerErrorBoundary>
      </main>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(PLAYER_FAILED);
    expect(alert.textContent).toContain("Cannot read properties of null (reading 'type')");
    expect(screen.getByRole('heading', { name: 'Saved replays' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close this recording' }));
    expect(onBack).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });
});
