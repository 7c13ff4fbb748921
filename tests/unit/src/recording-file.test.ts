import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  NEWER_RECORDING,
  NOT_A_RECORDING,
  RECORDING_TOO_DEEP,
  RECORDING_TOO_LARGE,
  notARecording,
  readRecordingFile,
} from '../../../src/offline/recordingFile.js';
import { MAX_JSON_DEPTH } from '../../../common/limits.js';
import { deepTree, recordingFile } from './offline/recording-fixtures.js';

const recording = recordingFile('c', 'abcdefgh');
const blob = (bytes: Uint8Array | string) => new Blob([typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)]);
const file = (value: unknown) => blob(JSON.stringify(value));
const withSession = (more: Record<string, unknown>) => file({ ...recording, session: { ...recording.session, ...more } });

describe('readRecordingFile', () => {
  it('reads a gzip recording, and one a browser already unpacked', async () => {
    expect(await readRecordingFile(blob(gzipSync(JSON.stringify(recording))))).toEqual(recording);
    expect(await readRecordingFile(file(recording))).toEqual(recording);
  });

  it('refuses what is not a recording, and a version it does not know', async () => {
    await expect(readRecordingFile(blob('not json'))).rejects.toThrow(NOT_A_RECORDING);
    await expect(readRecordingFile(file({ format: 'other', events: [] }))).rejects.toThrow(NOT_A_RECORDING);
    await expect(readRecordingFile(file({ ...recording, version: 2 }))).rejects.toThrow(NEWER_RECORDING);
    // Without the ids, "Keep in saved replays" would file it under "undefined".
    await expect(readRecordingFile(file({ ...recording, campaignId: undefined }))).rejects.toThrow(notARecording('campaignId is missing'));
    await expect(readRecordingFile(withSession({ sessionId: 7 }))).rejects.toThrow(notARecording('session.sessionId must be text of 1 to 64 characters'));
  });

  it('says which field is wrong when a field has the wrong type (it would otherwise break the page that shows it)', async () => {
    const refusal = (value: unknown) =>
      readRecordingFile(file(value)).then(
        () => 'opened',
        (error: Error) => error.message,
      );
    expect(await refusal({ ...recording, session: { ...recording.session, userAgent: {} } })).toBe(notARecording('session.userAgent must be text or null'));
    expect(await refusal({ ...recording, events: [1, null] })).toBe(notARecording('events[0] must be an object'));
    expect(await refusal({ ...recording, events: [recording.events[0], null] })).toBe(notARecording('events[1] must be an object'));
    expect(await refusal({ ...recording, events: [{ type: '2', data: {}, timestamp: 1 }] })).toBe(notARecording('events[0].type must be a number'));
    expect(await refusal({ ...recording, events: [{ type: 2, data: {} }] })).toBe(notARecording('events[0].timestamp is missing'));
    expect(await refusal({ ...recording, events: [] })).toBe(notARecording('events must be a list of at least one event'));
    expect(await refusal({ ...recording, events: {} })).toBe(notARecording('events must be a list of at least one event'));
    expect(await refusal({ ...recording, session: 'abcdefgh' })).toBe(notARecording('session must be an object'));
    expect(await refusal({ ...recording, session: { ...recording.session, isBot: 'no' } })).toBe(notARecording('session.isBot must be true or false'));
    expect(await refusal({ ...recording, session: { ...recording.session, pages: ['/', 3] } })).toBe(notARecording('session.pages[1] must be text'));
    const { country: _dropped, ...noCountry } = recording.session;
    expect(await refusal({ ...recording, session: noCountry })).toBe(notARecording('session.country is missing'));
    expect(await refusal({ ...recording, campaignId: 'x'.repeat(65) })).toBe(notARecording('campaignId must be text of 1 to 64 characters'));
  });

  it('refuses a page tree nested past the bound with a message, without a stack overflow, and opens one within it', async () => {
    // 20,000 levels, built as text: JSON.stringify itself would overflow the stack on so deep a value.
    const text = JSON.stringify({ ...recording, events: [recording.events[0], { type: 2, data: { node: '@' }, timestamp: 1_010 }] });
    const nested = '{"type":2,"id":1,"tagName":"div","attributes":{},"childNodes":['.repeat(20_000) + ']}'.repeat(20_000);
    await expect(readRecordingFile(blob(text.replace('"@"', nested)))).rejects.toThrow(RECORDING_TOO_DEEP);
    await expect(readRecordingFile(blob(gzipSync(text.replace('"@"', nested))))).rejects.toThrow(RECORDING_TOO_DEEP);
    // Brackets inside text do not count, escaped quotes and backslashes included.
    const bracketed = {
      ...recording,
      session: { ...recording.session, referrer: `"${'['.repeat(MAX_JSON_DEPTH * 2)}\\`, language: `\\"${'{'.repeat(MAX_JSON_DEPTH * 2)}` },
    };
    expect(await readRecordingFile(file(bracketed))).toEqual(bracketed);
    // A tree as deep as ingest accepts opens: the file's JSON nests as deep as a batch's.
    const levels = Math.floor((MAX_JSON_DEPTH - 6) / 2);
    const tallest = { ...recording, events: [recording.events[0], { type: 2, data: { node: deepTree(levels) }, timestamp: 1_010 }] };
    expect((await readRecordingFile(file(tallest))).events).toHaveLength(2);
    const over = { ...recording, events: [recording.events[0], { type: 2, data: { node: deepTree(levels + 2) }, timestamp: 1_010 }] };
    await expect(readRecordingFile(file(over))).rejects.toThrow(RECORDING_TOO_DEEP);
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
