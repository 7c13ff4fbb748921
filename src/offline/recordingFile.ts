import type { ReplayEvent, Session } from '../../common/api-types.js';
import { concatBytes } from './compress.js';

/** A downloaded recording (docs/api.md: "Recording files"). */
export interface RecordingFile {
  format: 'tapedeck-recording';
  version: 1;
  campaignId: string;
  session: Session;
  events: ReplayEvent[];
}

export const NOT_A_RECORDING = 'This file is not a Tapedeck recording.';
export const NEWER_RECORDING = 'This recording was made by a newer Tapedeck: update the app to open it.';
export const RECORDING_TOO_LARGE = 'This recording is too large to open here (over 128 MB unpacked).';

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

/** The file's text: gunzipped when it starts with gzip's magic bytes (a browser may have unpacked it already). */
async function fileText(file: Blob, max: number): Promise<string> {
  // Unpacked, a file only grows: one already over the bound is refused before it is read.
  if (file.size > max) throw new Error(RECORDING_TOO_LARGE);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const unpacked = bytes[0] === 0x1f && bytes[1] === 0x8b ? await readAtMost(new Response(bytes).body!.pipeThrough(new DecompressionStream('gzip')), max) : bytes;
  return new TextDecoder().decode(unpacked);
}

/** Reads a recording file, entirely on the device: no network, no sign-in. */
export async function readRecordingFile(file: Blob, maxBytes = MAX_RECORDING_BYTES): Promise<RecordingFile> {
  const text = await fileText(file, maxBytes).catch((error: unknown) => {
    throw error instanceof Error && error.message === RECORDING_TOO_LARGE ? error : new Error(NOT_A_RECORDING, { cause: error });
  });
  let parsed: Partial<RecordingFile>;
  try {
    parsed = JSON.parse(text) as Partial<RecordingFile>;
  } catch {
    throw new Error(NOT_A_RECORDING);
  }
  const filed = typeof parsed?.campaignId === 'string' && typeof parsed.session?.sessionId === 'string';
  if (parsed?.format !== 'tapedeck-recording' || !Array.isArray(parsed.events) || !filed) throw new Error(NOT_A_RECORDING);
  if (parsed.version !== 1) throw new Error(NEWER_RECORDING);
  return parsed as RecordingFile;
}
