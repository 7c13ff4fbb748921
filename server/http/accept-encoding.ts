import type { FastifyRequest } from 'fastify';

/**
 * Whether the caller takes gzip: listed (or "*") in Accept-Encoding without q=0. Every route
 * that compresses its own answers asks this one function, so `gzip;q=0` is honoured everywhere.
 */
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
