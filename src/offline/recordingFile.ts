import type { ReplayEvent, Session } from '../../common/api-types.js';

/** A downloaded recording (README: "Recording files"). */
export interface RecordingFile {
  format: 'tapedeck-recording';
  version: 1;
  campaignId: string;
  session: Session;
  events: ReplayEvent[];
}

export const NOT_A_RECORDING = 'This file is not a Tapedeck recording.';
export const NEWER_RECORDING = 'This recording was made by a newer Tapedeck: update the app to open it.';

/** The file's text: gunzipped when it starts with gzip's magic bytes (a browser may have unpacked it already). */
async function fileText(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
  return new Response(new Response(bytes).body!.pipeThrough(new DecompressionStream('gzip'))).text();
}

/** Reads a recording file, entirely on the device: no network, no sign-in. */
export async function readRecordingFile(file: Blob): Promise<RecordingFile> {
  let parsed: Partial<RecordingFile>;
  try {
    parsed = JSON.parse(await fileText(file)) as Partial<RecordingFile>;
  } catch {
    throw new Error(NOT_A_RECORDING);
  }
  if (parsed?.format !== 'tapedeck-recording' || !Array.isArray(parsed.events) || !parsed.session) throw new Error(NOT_A_RECORDING);
  if (parsed.version !== 1) throw new Error(NEWER_RECORDING);
  return parsed as RecordingFile;
}
