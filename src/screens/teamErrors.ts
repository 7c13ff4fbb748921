import { HttpError } from '../api/client.js';

/** A workspace call's failure as the server words it (its `error`), else the status. */
export function teamErrorMessage(error: unknown): string {
  if (error instanceof HttpError) return error.serverMessage ?? `Request failed with status ${error.status}`;
  return error instanceof Error ? error.message : 'Request failed';
}
