import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NEWER_RECORDING, NOT_A_RECORDING, RECORDING_TOO_LARGE, readRecordingFile } from '../../../src/offline/recordingFile.js';

const recording = { format: 'tapedeck-recording', version: 1, campaignId: 'c', session: { sessionId: 'abcdefgh' }, events: [{ type: 4, data: {}, timestamp: 1 }] };
const blob = (bytes: Uint8Array | string) => new Blob([typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)]);

describe('readRecordingFile', () => {
  it('reads a gzip recording, and one a browser already unpacked', async () => {
    expect(await readRecordingFile(blob(gzipSync(JSON.stringify(recording))))).toEqual(recording);
    expect(await readRecordingFile(blob(JSON.stringify(recording)))).toEqual(recording);
  });

  it('refuses what is not a recording, and a version it does not know', async () => {
    await expect(readRecordingFile(blob('not json'))).rejects.toThrow(NOT_A_RECORDING);
    await expect(readRecordingFile(blob(JSON.stringify({ format: 'other', events: [] })))).rejects.toThrow(NOT_A_RECORDING);
    await expect(readRecordingFile(blob(JSON.stringify({ ...recording, version: 2 })))).rejects.toThrow(NEWER_RECORDING);
    // Without the ids, "Keep in saved replays" would file it under "undefined".
    await expect(readRecordingFile(blob(JSON.stringify({ ...recording, campaignId: undefined })))).rejects.toThrow(NOT_A_RECORDING);
    await expect(readRecordingFile(blob(JSON.stringify({ ...recording, session: { sessionId: 7 } })))).rejects.toThrow(NOT_A_RECORDING);
  });

  it('refuses a file that unpacks past the bound instead of filling memory (a gzip bomb, or a huge plain file)', async () => {
    const max = 64 * 1024;
    const padded = JSON.stringify({ ...recording, events: [{ type: 4, data: { pad: ' '.repeat(1024 * 1024) }, timestamp: 1 }] });
    const bomb = gzipSync(padded);
    expect(bomb.byteLength).toBeLessThan(max);
    await expect(readRecordingFile(blob(bomb), max)).rejects.toThrow(RECORDING_TOO_LARGE);
    await expect(readRecordingFile(blob(padded), max)).rejects.toThrow(RECORDING_TOO_LARGE);
    expect(await readRecordingFile(blob(gzipSync(JSON.stringify(recording))), max)).toEqual(recording);
  });
});
