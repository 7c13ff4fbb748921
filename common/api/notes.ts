import { Type, type Static } from 'typebox';
import { MadeId } from './shared.js';
import { MAX_TIME } from '../limits.js';
import { MAX_NOTE_TEXT, MAX_NOTES_PER_SESSION } from '../notes.js';

// Notes at moments of a replay (GET/POST /api/v1/notes/{campaignId}/{sessionId},
// PATCH/DELETE …/{noteId}). The moment is epoch ms on the recording's clock, as its events'.

export const NOTE_LIMIT_REACHED = `A session keeps at most ${MAX_NOTES_PER_SESSION} notes`;
export const NOTE_NOT_FOUND = 'Note not found';

const text = () => Type.String({ minLength: 1, maxLength: MAX_NOTE_TEXT });
const timestamp = () => Type.Integer({ minimum: 0, maximum: MAX_TIME });

export const NoteBody = Type.Object({ text: text(), timestamp: timestamp() }, { additionalProperties: false });
export type NoteBody = Static<typeof NoteBody>;

/** PATCH: new text, a new moment, or both. */
export const NoteChanges = Type.Object(
  { text: Type.Optional(text()), timestamp: Type.Optional(timestamp()) },
  { additionalProperties: false, minProperties: 1 },
);
export type NoteChanges = Static<typeof NoteChanges>;

export const NotesParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }), sessionId: Type.String({ maxLength: 64 }) });
export const NoteParams = Type.Object({
  campaignId: Type.String({ maxLength: 64 }),
  sessionId: Type.String({ maxLength: 64 }),
  noteId: MadeId(),
});

export const Note = Type.Object({
  id: Type.String(),
  text: Type.String(),
  timestamp: Type.Number(),
  /** Who wrote it: only they may change or delete it. */
  author: Type.Object({ id: Type.String(), name: Type.String() }),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});
export type Note = Static<typeof Note>;

/** A session's notes in the recording's order. */
export const NoteList = Type.Object({ notes: Type.Array(Note, { maxItems: MAX_NOTES_PER_SESSION }) });
export type NoteList = Static<typeof NoteList>;

/** A note as a recording file carries it: the author by name only (no account id leaves the server). */
export const RecordingNote = Type.Object({
  text: Type.String({ maxLength: MAX_NOTE_TEXT }),
  timestamp: Type.Number(),
  author: Type.String({ maxLength: 200 }),
  createdAt: Type.Number(),
});
export type RecordingNote = Static<typeof RecordingNote>;
