import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { Session } from './api/sessions.js';
import { ReplayEvent } from './api/replay.js';
import { RecordingNote } from './api/notes.js';
import { MAX_NOTES_PER_SESSION } from './notes.js';
import { describeSchemaError } from './schema-flaw.js';

// The one schema of a recording file (README "Recording files"): the server's export writes it,
// the app checks a file against it before playing or keeping one. Checked by interpretation, not
// typebox's compiler: the app's Content Security Policy forbids the eval that compiling uses.

/** A recording file's format name and version: a reader checks both before playing one. */
export const RECORDING_FORMAT = 'tapedeck-recording';
export const RECORDING_VERSION = 1;

/** Ids as the server makes them (a campaign's UUID, a tracker's session id): short text. */
const id = () => Type.String({ minLength: 1, maxLength: 64 });

/** Everything but the events. */
const RecordingHead = Type.Object({
  format: Type.Literal(RECORDING_FORMAT),
  version: Type.Literal(RECORDING_VERSION),
  campaignId: id(),
  session: Type.Object({ ...Session.properties, sessionId: id() }),
  /** The replay's notes (files written before notes have none). */
  notes: Type.Optional(Type.Array(RecordingNote, { maxItems: MAX_NOTES_PER_SESSION })),
});

export const RecordingFileSchema = Type.Object({ ...RecordingHead.properties, events: Type.Array(ReplayEvent, { minItems: 1 }) });
export type RecordingFile = Static<typeof RecordingFileSchema>;

/**
 * Null when the value is a recording file of this version, else its first flaw, naming the field
 * ("session.userAgent must be text or null", "events[1] must be an object"). Events are checked
 * one at a time, so a file of a million bad events is not described a million times.
 */
export function recordingFileFlaw(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the file must hold a JSON object';
  const [headError] = Value.Errors(RecordingHead, value);
  if (headError) return describeSchemaError(RecordingHead, headError);
  const { events } = value as { events?: unknown };
  if (!Array.isArray(events) || events.length === 0) return 'events must be a list of at least one event';
  for (let i = 0; i < events.length; i++) {
    if (Value.Check(ReplayEvent, events[i])) continue;
    const [error] = Value.Errors(ReplayEvent, events[i]);
    if (error) return describeSchemaError(ReplayEvent, error, `/events/${i}`);
  }
  return null;
}
