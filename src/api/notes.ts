import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Ok } from '../../common/api-types.js';
import type { Note, NoteList } from '../../common/api/notes.js';

export const noteKeys = { session: (campaignId: string, sessionId: string) => ['notes', campaignId, sessionId] as const };

export const fetchNotes = (campaignId: string, sessionId: string, client: ApiClient = api) => client.get<NoteList>(API_PATHS.notes(campaignId, sessionId));

/** A note at a moment of the recording (epoch ms, the events' clock). */
export const addNote = (campaignId: string, sessionId: string, note: { text: string; timestamp: number }, client: ApiClient = api) =>
  client.post<Note>(API_PATHS.notes(campaignId, sessionId), note);

export const editNote = (campaignId: string, sessionId: string, noteId: string, text: string, client: ApiClient = api) =>
  client.patch<Note>(API_PATHS.note(campaignId, sessionId, noteId), { text });

export const deleteNote = (campaignId: string, sessionId: string, noteId: string, client: ApiClient = api) =>
  client.delete<Ok>(API_PATHS.note(campaignId, sessionId, noteId));
