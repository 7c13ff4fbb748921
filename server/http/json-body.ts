import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/**
 * The PWA sends Content-Type: application/json on every call, also on body-less POST/DELETE: in
 * this scope an empty body is no body, not malformed JSON. Fastify's size cap still applies.
 */
export function emptyJsonIsNoBody(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(badRequest('Malformed JSON body'), undefined);
    }
  });
}
