import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { MAX_NOTES_PER_SESSION } from '../../common/notes.js';
import { Note, NOTE_LIMIT_REACHED, NOTE_NOT_FOUND, NoteBody, NoteChanges, NoteList, NoteParams, NotesParams } from '../../common/api/notes.js';
import { Ok } from '../../common/api/shared.js';
import { currentUserId, requireUser } from '../auth/tokens.js';
import { HttpError, notFound, requiredText } from '../http/errors.js';
import { minuteLimit, type LimitReply } from '../http/rate-limit.js';
import { ownedSession } from '../sessions/ownership.js';
import { addNote, changeNote, deleteNote, findNote, listNotes, NOTE_WRITES_PER_USER } from './repository.js';

/** A workspace's notes are changed by whoever wrote them, whatever the others' roles. */
const NOT_AUTHOR = 'Only its author may change a note';

/** 2,000 characters of text, each up to 4 bytes as JSON escapes, and a moment. */
const BODY_LIMIT = 16 * 1024;

const noteText = (text: string) => requiredText(text, 'Note text is required');

/**
 * A replay's notes. Reading and adding: the campaign's owner, as every session call (404 unknown
 * session, 403 another owner's campaign). Changing and deleting: also only the note's author.
 */
export async function registerNotes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const writeLimit = minuteLimit(app, 'note-user', NOTE_WRITES_PER_USER);
  const preHandler = requireUser(ctx);

  /** The session and, for a change, the caller's own note of it. */
  async function authorsNote(request: FastifyRequest, reply: LimitReply, params: { campaignId: string; sessionId: string; noteId: string }) {
    const userId = currentUserId(request);
    await writeLimit(request, reply, userId);
    const session = await ownedSession(ctx.db, request, params);
    const note = await findNote(ctx.db, session.campaign_id, session.id, params.noteId);
    if (!note) throw notFound(NOTE_NOT_FOUND);
    if (note.author.id !== userId) throw new HttpError(403, NOT_AUTHOR);
    return { session, userId };
  }

  api.get(
    '/api/v1/notes/:campaignId/:sessionId',
    { config: { permission: 'sessions.watch' }, preHandler, schema: { params: NotesParams, response: { 200: NoteList } } },
    async (request, reply) => {
      const session = await ownedSession(ctx.db, request, request.params);
      reply.header('cache-control', 'private, no-cache');
      return { notes: await listNotes(ctx.db, session.campaign_id, session.id) };
    },
  );

  api.post(
    '/api/v1/notes/:campaignId/:sessionId',
    { config: { permission: 'notes.write' }, preHandler, bodyLimit: BODY_LIMIT, schema: { params: NotesParams, body: NoteBody, response: { 201: Note } } },
    async (request, reply) => {
      const authorId = currentUserId(request);
      await writeLimit(request, reply, authorId);
      const session = await ownedSession(ctx.db, request, request.params);
      const note = { campaignId: session.campaign_id, sessionId: session.id, authorId, text: noteText(request.body.text), timestamp: request.body.timestamp };
      const id = await addNote(ctx.db, note, MAX_NOTES_PER_SESSION);
      if (!id) throw new HttpError(409, NOTE_LIMIT_REACHED);
      // Gone only if its session was deleted meanwhile (the note went with it).
      const created = await findNote(ctx.db, session.campaign_id, session.id, id);
      if (!created) throw notFound(NOTE_NOT_FOUND);
      return reply.status(201).send(created);
    },
  );

  api.patch(
    '/api/v1/notes/:campaignId/:sessionId/:noteId',
    { config: { permission: 'notes.write' }, preHandler, bodyLimit: BODY_LIMIT, schema: { params: NoteParams, body: NoteChanges, response: { 200: Note } } },
    async (request, reply) => {
      const { session, userId } = await authorsNote(request, reply, request.params);
      const { text, timestamp } = request.body;
      await changeNote(ctx.db, session.campaign_id, request.params.noteId, userId, {
        ...(text !== undefined ? { text: noteText(text) } : {}),
        ...(timestamp !== undefined ? { timestamp } : {}),
      });
      const note = await findNote(ctx.db, session.campaign_id, session.id, request.params.noteId);
      if (!note) throw notFound(NOTE_NOT_FOUND);
      return note;
    },
  );

  api.delete(
    '/api/v1/notes/:campaignId/:sessionId/:noteId',
    { config: { permission: 'notes.write' }, preHandler, schema: { params: NoteParams, response: { 200: Ok } } },
    async (request, reply) => {
      const { session, userId } = await authorsNote(request, reply, request.params);
      await deleteNote(ctx.db, session.campaign_id, request.params.noteId, userId);
      return { ok: true as const };
    },
  );
}
