import { MAX_JSON_DEPTH } from '../../common/limits.js';
import { nestsDeeperThan } from '../../common/json-chars.js';
import { RECORDING_FORMAT, RECORDING_VERSION, recordingFileFlaw, type RecordingFile } from '../../common/recording-file.js';
import { concatBytes } from './compress.js';

export type { RecordingFile } from '../../common/recording-file.js';

export const NOT_A_RECORDING = 'This file is not a Tapedeck recording.';
export const NEWER_RECORDING = 'This recording was made by a newer Tapedeck: update the app to open it.';
export const RECORDING_TOO_LARGE = 'This recording is too large to open here (over 128 MB unpacked).';
export const RECORDING_TOO_DEEP = `This recording nests its pages deeper than ${MAX_JSON_DEPTH} levels: Tapedeck does not open it.`;

/** The refusal of a file that is a recording in name only: which field is wrong. */
export const notARecording = (flaw: string) => `This file is not a Tapedeck recording: ${flaw}.`;

/**
 * The most a file may unpack to: twice the server's default cap on a session's events (64 MB of
 * JSON), far under what a phone could hold parsed. Any file, a gzip bomb included, stops there.
 */
export const MAX_RECORDING_BYTES = 128 * 1024 * 1024;

/** Reads a stream to its end, giving up (and cancelling it) past `max` bytes. */
async function readAtMost(stream: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    size += part.value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new Error(RECORDING_TOO_LARGE);
    }
    chunks.push(part.value);
  }
  return concatBytes(chunks, size);
}

/** The file's bytes: gunzipped when it starts with gzip's magic bytes (a browser may have unpacked it already). */
async function fileBytes(file: Blob, max: number): Promise<Uint8Array> {
  // Unpacked, a file only grows: one already over the bound is refused before it is read.
  if (file.size > max) throw new Error(RECORDING_TOO_LARGE);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? readAtMost(new Response(bytes).body!.pipeThrough(new DecompressionStream('gzip')), max) : bytes;
}

/**
 * Reads a recording file, entirely on the device: no network, no sign-in. Refused with a message
 * that says why: too large, nested too deep (the player, like JSON tools, walks page trees
 * recursively), not a recording, a newer version, or which field is not as the format says.
 */
export async function readRecordingFile(file: Blob, maxBytes = MAX_RECORDING_BYTES): Promise<RecordingFile> {
  const bytes = await fileBytes(file, maxBytes).catch((error: unknown) => {
    throw error instanceof Error && error.message === RECORDING_TOO_LARGE ? error : new Error(NOT_A_RECORDING, { cause: error });
  });
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw new Error(RECORDING_TOO_DEEP);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new Error(NOT_A_RECORDING);
  }
  const { format, version } = (parsed ?? {}) as { format?: unknown; version?: unknown };
  if (format !== RECORDING_FORMAT) throw new Error(NOT_A_RECORDING);
  if (typeof version === 'number' && version > RECORDING_VERSION) throw new Error(NEWER_RECORDING);
  const flaw = recordingFileFlaw(parsed);
  if (flaw) throw new Error(notARecording(flaw));
  return parsed as RecordingFile;
}
