// A session's notes: caps shared by the API's schemas (common/api/notes.ts) and the replay page's
// fields. Plain values, no schemas: the PWA reads them without loading TypeBox.

export const MAX_NOTE_TEXT = 2000;
export const MAX_NOTES_PER_SESSION = 500;
