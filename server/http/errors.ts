import type { FastifyError, FastifyInstance } from 'fastify';
import { storable } from '../../common/scrub.js';

/** An error whose message is safe to show the caller, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Seconds the caller is told to wait before asking again (Retry-After), if any. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const forbidden = () => new HttpError(403, 'Forbidden');
export const notFound = (what = 'Not found') => new HttpError(404, what);

/** Text as a column holds it (no NUL, which PostgreSQL refuses), trimmed; 400 with `message` when that leaves nothing. */
export function requiredText(text: string, message: string): string {
  const stored = storable(text).trim();
  if (!stored) throw badRequest(message);
  return stored;
}

export const STORAGE_FULL_MESSAGE = 'Server storage is full; try again later';
export const STORAGE_READ_ONLY_MESSAGE = 'Server storage is not writable; try again later';
/** The tracker keeps a batch refused with 503 and sends it again after this many seconds. */
export const STORAGE_RETRY_AFTER_S = 300;

/** Error codes of a full disk or quota (SQLite, Node, PostgreSQL) and of read-only storage. */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);
const READ_ONLY = new Set(['SQLITE_READONLY', 'EROFS']);

/** The codes of an error and of its causes (a driver's error is often wrapped). */
function* codesOf(error: unknown): Generator<string> {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') yield e.code;
  }
}

/** The storage fault behind an error (its code, also through `cause`), if any. */
export function storageFault(error: unknown): { code: string; message: string } | null {
  for (const code of codesOf(error)) {
    if (FULL.has(code) || code.startsWith('SQLITE_FULL')) return { code, message: STORAGE_FULL_MESSAGE };
    if (READ_ONLY.has(code) || code.startsWith('SQLITE_READONLY')) return { code, message: STORAGE_READ_ONLY_MESSAGE };
  }
  return null;
}

const DATABASE_BUSY_MESSAGE = 'The server is busy; try again in a moment';
const DATABASE_BUSY_RETRY_AFTER_S = 1;
/** PostgreSQL's serialization failure, deadlock and lock not available. */
const TRANSIENT = new Set(['40001', '40P01', '55P03']);

/**
 * A database fault that passes: PostgreSQL cancels one of two deadlocked transactions so the
 * other goes on, SQLite was busy. The same work done a moment later succeeds: a writer tries
 * again, and a request that still meets one is answered 503 with Retry-After (the tracker sends
 * the batch again), never 500.
 */
export function isTransientDatabaseFault(error: unknown): boolean {
  for (const code of codesOf(error)) if (TRANSIENT.has(code) || code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  return false;
}

/** One error handler: 4xx answers carry a reason in {error}; 5xx details stay in the log. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'request';
      const field = first?.instancePath ? `${where}${first.instancePath.replace(/\//g, '.')}` : where;
      const detail =
        first?.keyword === 'additionalProperties'
          ? `unknown field "${String((first.params as { additionalProperty?: string }).additionalProperty)}"`
          : (first?.message ?? 'is invalid');
      return reply.status(400).send({ error: `${field} ${detail}` });
    }
    const status = error.statusCode ?? 500;
    if (error instanceof HttpError && error.retryAfterS !== undefined) reply.header('Retry-After', String(error.retryAfterS));
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError'
          ? 'Malformed JSON body'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body is too large'
            : error.message;
      return reply.status(status).send({ error: message });
    }
    // Our own 5xx answers (a busy queue) say why; the caller set any Retry-After.
    if (error instanceof HttpError) return reply.status(error.statusCode).send({ error: error.message });
    // A full or read-only disk is named in the log as itself, and the tracker is told to retry.
    const fault = storageFault(error);
    if (fault) {
      request.log.error({ err: error }, `storage fault ${fault.code}: ${error.message}`);
      return reply.status(503).header('Retry-After', String(STORAGE_RETRY_AFTER_S)).send({ error: fault.message });
    }
    if (isTransientDatabaseFault(error)) {
      request.log.warn({ err: error }, 'the database was busy; the caller was asked to try again');
      return reply.status(503).header('Retry-After', String(DATABASE_BUSY_RETRY_AFTER_S)).send({ error: DATABASE_BUSY_MESSAGE });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });
}
