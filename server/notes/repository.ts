import crypto from 'node:crypto';
import type { Db } from '../db/index.js';
import type { Executor } from '../db/executor.js';
import type { Note, NoteChanges, RecordingNote } from '../../common/api/notes.js';

/** Notes one user may add, change or delete a minute. */
export const NOTE_WRITES_PER_USER = 60;

/** The notes table: notes at moments of a replay, each going with its session. */

interface NoteRow {
  id: string;
  text: string;
  timestamp: number;
  author_id: string;
  author_name: string | null;
  created_at: number;
  updated_at: number;
}

const toNote = (row: NoteRow): Note => ({
  id: row.id,
  text: row.text,
  timestamp: Number(row.timestamp),
  author: { id: row.author_id, name: row.author_name ?? 'Unknown' },
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

function notesQuery(db: Executor, campaignId: string, sessionId: string) {
  return db
    .selectFrom('notes')
    .leftJoin('users', 'users.id', 'notes.author_id')
    .select(['notes.id', 'notes.text', 'notes.timestamp', 'notes.author_id', 'users.name as author_name', 'notes.created_at', 'notes.updated_at'])
    .where('notes.campaign_id', '=', campaignId)
    .where('notes.session_id', '=', sessionId);
}

/** A session's notes in the recording's order. */
export async function listNotes(db: Executor, campaignId: string, sessionId: string): Promise<Note[]> {
  const rows = await notesQuery(db, campaignId, sessionId).orderBy('notes.timestamp').orderBy('notes.created_at').orderBy('notes.id').execute();
  return rows.map(toNote);
}

export async function findNote(db: Executor, campaignId: string, sessionId: string, noteId: string): Promise<Note | undefined> {
  const row = await notesQuery(db, campaignId, sessionId).where('notes.id', '=', noteId).executeTakeFirst();
  return row && toNote(row);
}

/** The notes a recording file carries: the author by name only. */
export async function recordingNotes(db: Executor, campaignId: string, sessionId: string): Promise<RecordingNote[]> {
  return (await listNotes(db, campaignId, sessionId)).map((note) => ({
    text: note.text,
    timestamp: note.timestamp,
    author: note.author.name,
    createdAt: note.createdAt,
  }));
}

/**
 * Adds a note unless the session has `max` already: counted and inserted in one transaction,
 * serialised on the campaign's row (PostgreSQL), so two adds at once cannot pass the bound.
 */
export async function addNote(
  db: Db,
  note: { campaignId: string; sessionId: string; authorId: string; text: string; timestamp: number },
  max: number,
  now = Date.now(),
): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('campaigns')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', note.campaignId)
      .execute();
    const { n } = await trx
      .selectFrom('notes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('campaign_id', '=', note.campaignId)
      .where('session_id', '=', note.sessionId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return undefined;
    const id = crypto.randomUUID();
    await trx
      .insertInto('notes')
      .values({
        id,
        campaign_id: note.campaignId,
        session_id: note.sessionId,
        author_id: note.authorId,
        text: note.text,
        timestamp: note.timestamp,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  });
}

/** Changes a note's text or moment; only its author's (the caller checked who wrote it). */
export async function changeNote(db: Executor, campaignId: string, noteId: string, authorId: string, changes: NoteChanges, now = Date.now()): Promise<void> {
  await db
    .updateTable('notes')
    .set({ ...changes, updated_at: now })
    .where('campaign_id', '=', campaignId)
    .where('id', '=', noteId)
    .where('author_id', '=', authorId)
    .execute();
}

export async function deleteNote(db: Executor, campaignId: string, noteId: string, authorId: string): Promise<void> {
  await db.deleteFrom('notes').where('campaign_id', '=', campaignId).where('id', '=', noteId).where('author_id', '=', authorId).execute();
}
