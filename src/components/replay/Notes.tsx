import { useEffect, useState, type FormEvent } from 'react';
import type { SavedReplay } from '../../offline/db.js';
import { recordReplayNotes } from '../../offline/replayStore.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addNote, deleteNote, editNote, fetchNotes, noteKeys } from '../../api/notes.js';
import { createErrorMessage } from '../../api/campaigns.js';
import { meQueryOptions } from '../../auth/session.js';
import type { Note } from '../../../common/api/notes.js';
import { MAX_NOTE_TEXT } from '../../../common/notes.js';
import type { ReplayEvent } from '../../../common/api-types.js';
import { formatPlayerTime } from '../player/playerMath.js';
import { recordingStart } from './activity.js';

// Notes at moments of a replay: added at the player's current time, listed here, and shown with
// the activity (timeline markers and entries). Only a note's author may edit or delete it.

/**
 * The replay's notes: as the server has them, else (offline) as the saved copy kept them. Seen
 * online, they are kept with the saved copy, so a copy saved by the service worker gets them too.
 */
export function useNotes(campaignId: string, sessionId: string, saved?: SavedReplay | null): Note[] | undefined {
  const notes = useQuery({
    queryKey: noteKeys.session(campaignId, sessionId),
    queryFn: () => fetchNotes(campaignId, sessionId),
    enabled: Boolean(campaignId && sessionId),
  });
  const online = notes.data?.notes;
  const kept = saved?.notes;
  useEffect(() => {
    if (online && saved && JSON.stringify(online) !== JSON.stringify(kept ?? [])) void recordReplayNotes(campaignId, sessionId, online).catch(() => undefined);
  }, [online, saved, kept, campaignId, sessionId]);
  return online ?? kept;
}

interface NotesProps {
  campaignId: string;
  sessionId: string;
  notes: Note[] | undefined;
  events: ReplayEvent[];
  /** The player's time (ms from the recording's start). */
  currentTime: number;
  onSeek(ms: number): void;
}

export function NotesPanel({ campaignId, sessionId, notes, events, currentTime, onSeek }: NotesProps) {
  const queryClient = useQueryClient();
  // The note box opens on demand: the Activity list below it stays in sight until a note is wanted.
  const [writing, setWriting] = useState(false);
  const start = events.length ? recordingStart(events) : 0;
  const refresh = () => queryClient.invalidateQueries({ queryKey: noteKeys.session(campaignId, sessionId) });
  return (
    <div className="notes">
      {writing ? (
        <NoteForm
          onSave={async (text) => {
            await addNote(campaignId, sessionId, { text, timestamp: Math.round(start + currentTime) });
            setWriting(false);
            await refresh();
          }}
          onCancel={() => setWriting(false)}
          currentTime={currentTime}
        />
      ) : (
        <button type="button" className="button button-secondary button-small" onClick={() => setWriting(true)}>
          Add note
        </button>
      )}
      {notes && notes.length > 0 && (
        <ol className="note-list" aria-label="Notes">
          {notes.map((note) => (
            <NoteEntry
              key={note.id}
              campaignId={campaignId}
              sessionId={sessionId}
              note={note}
              at={Math.max(0, note.timestamp - start)}
              onSeek={onSeek}
              onChanged={refresh}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

/** The note box, labelled with the player's moment; Escape or Cancel closes it. */
function NoteForm({ currentTime, onSave, onCancel }: { currentTime: number; onSave(text: string): Promise<void>; onCancel(): void }) {
  const [text, setText] = useState('');
  const save = useMutation({ mutationFn: () => onSave(text.trim()) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) save.mutate();
  };
  return (
    <form className="note-form" onSubmit={submit} onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      <label htmlFor="note-text" className="small">
        Note at {formatPlayerTime(currentTime)}
      </label>
      <textarea id="note-text" className="input" rows={2} maxLength={MAX_NOTE_TEXT} value={text} autoFocus onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="button button-primary button-small" disabled={save.isPending || !text.trim()}>
        Save note
      </button>
      <button type="button" className="button button-secondary button-small" onClick={onCancel}>
        Cancel
      </button>
      {save.isError && (
        <span role="alert" className="error-text small">
          {createErrorMessage(save.error, 'Failed to add the note')}
        </span>
      )}
    </form>
  );
}

interface NoteEntryProps {
  campaignId: string;
  sessionId: string;
  note: Note;
  at: number;
  onSeek(ms: number): void;
  onChanged(): Promise<void>;
}

function NoteEntry({ campaignId, sessionId, note, at, onSeek, onChanged }: NoteEntryProps) {
  const me = useQuery(meQueryOptions());
  const [draft, setDraft] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (action: () => Promise<unknown>) => action(),
    onSuccess: async () => {
      setDraft(null);
      await onChanged();
    },
  });
  const mine = me.data?.id === note.author.id;
  return (
    <li className="note">
      <button type="button" className="activity-jump" onClick={() => onSeek(at)}>
        <span className="activity-dot activity-note" aria-hidden="true" />
        <span className="activity-time">{formatPlayerTime(at)}</span> <span className="small muted">{note.author.name}:</span> {note.text}
      </button>
      {mine && draft === null && (
        <span className="note-actions">
          <button type="button" className="button button-secondary button-small" onClick={() => setDraft(note.text)}>
            Edit
          </button>
          <button
            type="button"
            className="button button-danger button-small"
            disabled={change.isPending}
            onClick={() => change.mutate(() => deleteNote(campaignId, sessionId, note.id))}
          >
            Delete
          </button>
        </span>
      )}
      {draft !== null && (
        <form
          className="note-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (draft.trim()) change.mutate(() => editNote(campaignId, sessionId, note.id, draft.trim()));
          }}
        >
          <textarea className="input" aria-label="Note text" rows={2} maxLength={MAX_NOTE_TEXT} value={draft} onChange={(e) => setDraft(e.target.value)} />
          <button type="submit" className="button button-primary button-small" disabled={change.isPending || !draft.trim()}>
            Save
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </form>
      )}
      {change.isError && (
        <span role="alert" className="error-text small">
          {createErrorMessage(change.error, 'Failed to change the note')}
        </span>
      )}
    </li>
  );
}
