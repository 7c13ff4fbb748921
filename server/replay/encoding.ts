import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether the caller takes gzip: listed (or "*") in Accept-Encoding without q=0. */
export function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

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
