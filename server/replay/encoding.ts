import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsGzip } from '../http/accept-encoding.js';

/**
 * Sends a stream of JSON text, gzip-compressed on the wire when the caller accepts it. The body is
 * never held whole: a 100,000-event replay flows from the chunks through zlib to the socket.
 */
export function sendJsonStream(request: FastifyRequest, reply: FastifyReply, body: Readable): FastifyReply {
  reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'Accept-Encoding');
  if (!acceptsGzip(request)) return reply.send(body);
  const gzip = createGzip();
  pipeline(body, gzip, (error) => {
    if (error) request.log.warn({ err: error }, 'replay stream ended early');
  });
  return reply.header('content-encoding', 'gzip').send(gzip);
}
